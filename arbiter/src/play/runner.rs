//! Runs a schedule of games on N concurrent slots. Each slot owns its own
//! engine processes (never shared between games in flight), starts them on
//! first use, and restarts an engine that crashed or misbehaved before its
//! next game. Matches and tournaments are both schedules.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mancala_rules::{GameId, GameResult, Side};
use tokio::sync::mpsc;

use crate::engine::config::EngineSpec;
use crate::engine::process::{LaunchSpec, TrafficLog};
use crate::engine::session::{Fault, Session};
use crate::play::game::{self, GamePlan, Played, Timeouts};
use crate::play::partie::{Next, PartieGame, PartieRun};
use crate::records::log::Termination;

/// One game of a schedule.
#[derive(Clone, Debug)]
pub struct Job {
    /// Position in the schedule, from 0.
    pub index: usize,
    /// The round label for logs (`3`, `3.1`).
    pub round: String,
    pub game: GameId,
    /// Engine indices (into [`Runner::engines`]) of South and North.
    pub south: usize,
    pub north: usize,
    pub start_position: String,
    /// Which opening/pair this game belongs to (games of a pair share it).
    pub pair: usize,
}

/// A finished job.
#[derive(Clone, Debug)]
pub struct Finished {
    pub job: Job,
    /// The game, or with `--partie` the Partie as a whole (result from the
    /// job's seats: South = the engine that opened game 1).
    pub played: Played,
    /// The games of a Partie, in order (empty without `--partie`).
    pub partie: Vec<PartieGame>,
}

/// What the consumer of results wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Start no further games (e.g. SPRT decided); games in flight finish.
    Stop,
}

/// How engines are started and games played.
#[derive(Clone)]
pub struct Runner {
    pub engines: Vec<EngineSpec>,
    pub concurrency: usize,
    pub timeouts: Timeouts,
    /// For `umiok`.
    pub handshake_timeout: Duration,
    pub max_plies: Option<u32>,
    /// Directory for engine stderr logs (when a spec names no file).
    pub stderr_dir: Option<PathBuf>,
    /// Protocol traffic (`--debug`).
    pub traffic: Option<Arc<dyn TrafficLog>>,
    /// Grace between `quit` and SIGKILL.
    pub quit_grace: Duration,
    /// Bohnenspiel match play: each job is a Partie to this many beans.
    pub partie: Option<u32>,
    /// Resign, draw and decided adjudication for every game.
    pub adjudication: crate::play::adjudicate::Rules,
}

impl Runner {
    pub fn launch_spec(&self, engine: usize, slot: usize) -> LaunchSpec {
        let spec = &self.engines[engine];
        let stderr = spec.stderr.clone().or_else(|| {
            self.stderr_dir
                .as_ref()
                .map(|d| d.join(format!("{}.{}.stderr.log", sanitize(&spec.name), slot + 1)))
        });
        spec.launch_spec(stderr)
    }

    /// Starts engine `engine` for slot `slot`: handshake, game check, options.
    pub async fn start_engine(
        &self,
        engine: usize,
        slot: usize,
        game: GameId,
    ) -> Result<Session, Fault> {
        let mut s = Session::start(
            &self.launch_spec(engine, slot),
            self.handshake_timeout,
            self.traffic.clone(),
        )
        .await?;
        if !s.plays(game.as_str()) {
            let games = s.games.join(" ");
            s.shutdown(self.quit_grace).await;
            return Err(Fault::Garbled {
                line: format!("games {games}"),
                problem: format!("engine does not play {game}"),
            });
        }
        s.set_options(&self.engines[engine].options).await?;
        Ok(s)
    }

    /// Runs `jobs` (in order, `concurrency` at a time) and hands each result
    /// to `on_result` as it finishes, in the order they finish.
    pub async fn run(&self, jobs: Vec<Job>, mut on_result: impl FnMut(Finished) -> Flow) {
        let queue = Arc::new(Mutex::new(VecDeque::from(jobs)));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut workers = Vec::new();
        for slot in 0..self.concurrency.max(1) {
            let (runner, queue, stop, tx) = (
                self.clone(),
                Arc::clone(&queue),
                Arc::clone(&stop),
                tx.clone(),
            );
            workers.push(tokio::spawn(async move {
                runner.slot(slot, queue, stop, tx).await
            }));
        }
        drop(tx);
        while let Some(done) = rx.recv().await {
            if on_result(done) == Flow::Stop {
                stop.store(true, Ordering::SeqCst);
            }
        }
        for w in workers {
            let _ = w.await;
        }
    }

    async fn slot(
        &self,
        slot: usize,
        queue: Arc<Mutex<VecDeque<Job>>>,
        stop: Arc<AtomicBool>,
        results: mpsc::UnboundedSender<Finished>,
    ) {
        let mut sessions: Vec<Option<Session>> = (0..self.engines.len()).map(|_| None).collect();
        loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                break;
            };
            let (played, partie) = match self.partie {
                Some(target) => self.play_partie(slot, &job, target, &mut sessions).await,
                None => (self.play_job(slot, &job, &mut sessions).await, Vec::new()),
            };
            if results
                .send(Finished {
                    job,
                    played,
                    partie,
                })
                .is_err()
            {
                break;
            }
        }
        for s in sessions.into_iter().flatten() {
            s.shutdown(self.quit_grace).await;
        }
    }

    /// Plays a Partie between the job's South (who opens game 1) and North;
    /// the returned `Played` is the Partie's result from the job's seats.
    async fn play_partie(
        &self,
        slot: usize,
        job: &Job,
        target: u32,
        sessions: &mut [Option<Session>],
    ) -> (Played, Vec<PartieGame>) {
        let mut partie = PartieRun::new(target, job.south, job.north);
        loop {
            let (south, north) = partie.next_seats();
            let game = Job {
                south,
                north,
                ..job.clone()
            };
            let played = self.play_job(slot, &game, sessions).await;
            if let Next::Done(result, termination) = partie.record(played) {
                let played = Played {
                    result,
                    termination,
                    moves: Vec::new(),
                    scores: None,
                };
                return (played, partie.games);
            }
        }
    }

    async fn play_job(&self, slot: usize, job: &Job, sessions: &mut [Option<Session>]) -> Played {
        let sides = [job.south, job.north];
        for side in Side::BOTH {
            let engine = sides[side.index()];
            if sessions[engine].as_mut().is_some_and(|s| !s.is_alive()) {
                if let Some(dead) = sessions[engine].take() {
                    dead.shutdown(self.quit_grace).await;
                }
            }
            if sessions[engine].is_none() {
                match self.start_engine(engine, slot, job.game).await {
                    Ok(s) => sessions[engine] = Some(s),
                    Err(fault) => {
                        let detail = format!("{} at start: {fault}", self.engines[engine].name);
                        let termination = if fault.is_crash() || matches!(fault, Fault::Gone { .. })
                        {
                            Termination::Crash { side, detail }
                        } else {
                            Termination::Unresponsive { side, detail }
                        };
                        return Played {
                            result: GameResult::win_for(side.opponent()),
                            termination,
                            moves: Vec::new(),
                            scores: None,
                        };
                    }
                }
            }
        }
        let plan = GamePlan {
            game: job.game,
            start_position: job.start_position.clone(),
            tc: [self.engines[job.south].tc, self.engines[job.north].tc],
            max_plies: self.max_plies,
            adjudication: self.adjudication,
        };
        // Both sessions exist (started above); take them out to borrow both.
        let (Some(mut south), Some(mut north)) =
            (sessions[job.south].take(), sessions[job.north].take())
        else {
            let detail = "internal: engine session missing".to_string();
            return Played {
                result: GameResult::Draw,
                termination: Termination::Interrupted { detail },
                moves: Vec::new(),
                scores: None,
            };
        };
        let played = game::play(&plan, [&mut south, &mut north], self.timeouts).await;
        // An engine that broke the protocol is not trusted with another game;
        // one with `restart=on` gets a fresh process for every game.
        let offender = played.offender();
        for (side, session) in [(Side::South, south), (Side::North, north)] {
            let engine = sides[side.index()];
            let restart = self.engines[engine].restart == crate::engine::config::Restart::On;
            if offender == Some(side) || restart {
                session.shutdown(self.quit_grace).await;
            } else {
                sessions[engine] = Some(session);
            }
        }
        played
    }
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
