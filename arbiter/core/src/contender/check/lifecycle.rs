//! Keeping the checked engine up: its session started (and restarted once
//! after a check left it in an unknown state), `isready` under the right
//! limit, and a new game set up.

use std::time::Duration;

use mancala_rules::GameId;
use tokio::time::Instant;

use super::*;

impl<F: FnMut(&CheckLine)> Checker<F> {
    /// The live session, restarting the engine if an earlier check killed it.
    pub(super) async fn session(&mut self) -> Result<&mut Session, String> {
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
    pub(super) async fn discard(&mut self) {
        if let Some(mut s) = self.session.take() {
            s.kill();
            s.shutdown(Duration::ZERO).await;
        }
    }

    /// The `readyok` limit now: start-up for a fresh process, else per command.
    pub(super) fn ready_limit(&self) -> Duration {
        if self.fresh {
            self.limits.handshake
        } else {
            self.limits.ready
        }
    }

    pub(super) async fn ready(&mut self) -> Result<String, String> {
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
    pub(super) async fn new_game(&mut self, game: GameId) -> Result<(), String> {
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
}
