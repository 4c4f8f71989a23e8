//! A random mover inside the arbiter: a [`Link`] that answers UMI as an
//! engine playing a uniformly random legal move, seeded. It needs no
//! process and no socket, so a sanity game (the arena's admission plays one
//! against every new bot, as FAU's Kalah server does) costs nothing but
//! the bot's own time. It is the arbiter's rules library that moves, so it
//! never plays an illegal move.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use mancala_rules::{game_from_position, new_game, AnyGame, GameId};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::time::Instant;
use umi::{Command, PositionBase};

use crate::contender::process::{Exit, ReadError, ShutdownReport, TrafficLog, WriteError};
use crate::contender::transport::{LagCharge, Link, LinkFuture};

/// The random mover's `id name`.
pub const NAME: &str = "arbiter random mover";

/// The in-process random mover.
pub struct RandomMover {
    games: Vec<GameId>,
    rng: SmallRng,
    /// The game of the last `newgame` (for `position startpos`).
    game: Option<GameId>,
    position: Option<Box<dyn AnyGame>>,
    /// Lines it has said and not yet been read.
    out: VecDeque<String>,
    last: std::time::Instant,
    closed: Option<String>,
}

impl RandomMover {
    /// A random mover that plays `games`, its moves drawn from `seed`.
    pub fn new(games: Vec<GameId>, seed: u64) -> RandomMover {
        RandomMover {
            games,
            rng: SmallRng::seed_from_u64(seed),
            game: None,
            position: None,
            out: VecDeque::new(),
            last: std::time::Instant::now(),
            closed: None,
        }
    }

    fn say(&mut self, line: String) {
        self.out.push_back(line);
    }

    /// Takes one command line as an engine would.
    fn hear(&mut self, line: &str) {
        let Ok(command) = Command::parse(line) else {
            return; // why silent: it is the arbiter's own, never malformed
        };
        match command {
            Command::Umi => {
                self.say(format!("id name {NAME}"));
                let games: Vec<&str> = self.games.iter().map(|g| g.as_str()).collect();
                self.say(format!("games {}", games.join(" ")));
                self.say("umiok".to_owned());
            }
            Command::IsReady => self.say("readyok".to_owned()),
            Command::NewGame(id) => self.game = Some(id),
            Command::Position { base, moves } => {
                let game = match base {
                    PositionBase::StartPos => self.game.map(new_game),
                    PositionBase::Pos(text) => game_from_position(text.as_str()).ok(),
                };
                self.position = game.and_then(|mut g| {
                    for mv in &moves {
                        g.play(mv.as_str()).ok()?;
                    }
                    Some(g)
                });
            }
            Command::Go(_) => {
                let legal = self
                    .position
                    .as_ref()
                    .map(|p| p.legal_moves())
                    .unwrap_or_default();
                let mv = if legal.is_empty() {
                    "none".to_owned()
                } else {
                    legal[self.rng.random_range(0..legal.len())].clone()
                };
                self.say(format!("bestmove {mv}"));
            }
            Command::Quit => self.closed = Some("quit".to_owned()),
            _ => {}
        }
    }
}

impl Link for RandomMover {
    fn id(&self) -> u32 {
        0
    }

    fn set_traffic_log(&mut self, _log: Option<Arc<dyn TrafficLog>>) {}

    fn send_lines<'a>(
        &'a mut self,
        lines: &'a [&'a str],
    ) -> LinkFuture<'a, Result<(), WriteError>> {
        for line in lines {
            self.hear(line);
        }
        self.last = std::time::Instant::now();
        Box::pin(async { Ok(()) })
    }

    fn read_line_until(&mut self, deadline: Instant) -> LinkFuture<'_, Result<String, ReadError>> {
        Box::pin(async move {
            if let Some(line) = self.out.pop_front() {
                self.last = std::time::Instant::now();
                return Ok(line);
            }
            if self.closed.is_some() {
                return Err(ReadError::Eof);
            }
            // why wait: nothing more will come until the arbiter writes.
            tokio::time::sleep_until(deadline).await;
            Err(ReadError::Timeout)
        })
    }

    fn read_line_if_ready(&mut self) -> LinkFuture<'_, Result<Option<String>, ReadError>> {
        Box::pin(async move { Ok(self.out.pop_front()) })
    }

    fn last_line_at(&self) -> std::time::Instant {
        self.last
    }

    fn lag_charge(&mut self, _elapsed: Duration) -> LagCharge {
        LagCharge::default()
    }

    fn shutdown(self: Box<Self>, _grace: Duration) -> LinkFuture<'static, ShutdownReport> {
        Box::pin(async {
            ShutdownReport {
                exit: Some(Exit::Code(0)),
                quit_sent: true,
                forced: false,
            }
        })
    }

    fn close(&mut self, why: &str) {
        self.closed = Some(why.to_owned());
    }

    fn poll_open(&mut self) -> bool {
        self.closed.is_none()
    }

    fn drop_reason(&self) -> Option<String> {
        self.closed.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contender::session::Session;

    #[tokio::test]
    async fn it_shakes_hands_and_answers_every_go_with_a_legal_move() {
        let mover = RandomMover::new(vec![GameId::Kalah], 7);
        let mut s = Session::start_on_link(Box::new(mover), Duration::from_secs(5), None)
            .await
            .expect("the handshake");
        assert_eq!(s.id_name.as_deref(), Some(NAME));
        assert!(s.plays("kalah"));
        let mut game = new_game(GameId::Kalah);
        s.send("newgame kalah").await.unwrap();
        while !game.legal_moves().is_empty() {
            let moves = game.moves();
            let position = if moves.is_empty() {
                "position startpos".to_owned()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            s.send(&position).await.unwrap();
            s.send("go movetime 10").await.unwrap();
            let line = s
                .read_line(Instant::now() + Duration::from_secs(5), "bestmove")
                .await
                .unwrap();
            let mv = line.strip_prefix("bestmove ").expect("a bestmove");
            game.play(mv).expect("a legal move");
        }
    }
}
