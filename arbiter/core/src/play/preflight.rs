//! The check before an event's first game: every engine started once.

use mancala_rules::GameId;

use crate::contender::config::EngineSpec;
use crate::contender::session::Fault;
use crate::play::runner::Runner;

/// Why [`preflight`] refused an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The command line chose wrong: an engine that does not play the game,
    /// or lacks an option it was given.
    Choice(String),
    /// An engine that cannot start or answer, or a remote engine that did
    /// not come.
    Failed(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Choice(m) | Refused::Failed(m) => f.write_str(m),
        }
    }
}

/// Starts every engine once before the first game: a binary that does not
/// start, answer `umi`, play the game or accept its options is refused here
/// with a clear message rather than forfeiting every game: what went wrong,
/// where the engine's stderr went and its last lines (as `arbiter check`).
///
/// Remote engines are first waited for (`--remote-wait`), then checked the
/// same way, through the same session code, on one of their connections;
/// that session is kept for the engine's first game
/// ([`crate::contender::remote::IdleSessions`]). Called once for each game of the event: a
/// remote engine already checked is checked for the next game on the same
/// session.
pub async fn preflight(runner: &Runner, game: GameId) -> Result<(), Refused> {
    for spec in &runner.engines {
        if spec.proto == crate::contender::config::Protocol::Kgp {
            crate::contender::config::check_kgp_game(&spec.name, game)
                .map_err(|e| Refused::Choice(e.to_string()))?;
        }
    }
    let checked = runner.remote.as_ref().map(|r| &r.idle);
    if let Some(remote) = &runner.remote {
        let waiting: Vec<EngineSpec> = (runner.engines.iter().enumerate())
            .filter(|(i, _)| remote.idle.games(*i).is_none())
            .map(|(_, spec)| spec.clone())
            .collect();
        remote
            .wait_for_all(&waiting)
            .await
            .map_err(|e| Refused::Failed(e.to_string()))?;
    }
    for (i, spec) in runner.engines.iter().enumerate() {
        // why not KGP: the adapter answers a KGP bot's handshake itself,
        // and the games it can play were checked above.
        if spec.proto == crate::contender::config::Protocol::Kgp {
            continue;
        }
        let refused = |e: Fault| {
            // why two kinds: an engine that does not play the game or lacks
            // a configured option is the command line's mistake (2); one
            // that cannot start or answer is a failure (1).
            let wrong_choice = matches!(
                e,
                Fault::NoSuchOption { .. } | Fault::BadOptionValue { .. } | Fault::WrongGame { .. }
            );
            let message = match &spec.remote {
                // why no stderr here: a remote engine's is on its author's machine.
                Some(id) => format!("engine {} (remote {id}): {e}", spec.name),
                None => {
                    let stderr = runner.launch_spec(i, 0).stderr_log;
                    format!(
                        "engine {}: {e}; {}",
                        spec.name,
                        crate::contender::stderr_tail::explain(stderr.as_deref())
                    )
                }
            };
            if wrong_choice {
                Refused::Choice(message)
            } else {
                Refused::Failed(message)
            }
        };
        if let Some(games) = checked.and_then(|c| c.games(i)) {
            if !games.iter().any(|g| g == game.as_str()) {
                return Err(refused(Fault::WrongGame {
                    game: game.to_string(),
                    games: games.join(" "),
                }));
            }
            continue;
        }
        let session = runner.start_engine(i, 0, game).await.map_err(refused)?;
        match (checked, &spec.remote) {
            (Some(checked), Some(_)) => checked.keep(i, session),
            _ => {
                session.shutdown(runner.quit_grace).await;
            }
        }
    }
    Ok(())
}
