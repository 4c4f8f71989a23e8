//! Runs a schedule of games on N concurrent slots. Each slot owns its own
//! engine processes (never shared between games in flight), starts them on
//! first use, and restarts an engine that crashed or misbehaved before its
//! next game. Matches and tournaments are both schedules.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mancala_rules::{GameId, GameResult, Side};
use tokio::sync::{mpsc, oneshot};

use crate::contender::config::EngineSpec;
use crate::contender::process::{LaunchSpec, TrafficLog};
use crate::contender::remote::{Acquired, RemoteEngines};
use crate::contender::session::{Fault, Session};
use crate::play::game::{self, GamePlan, Played, Timeouts};
use crate::play::observe::{clocks_ms, GameObserver, GameStart, GameWatch};
use crate::play::partie::{Next, PartieGame, PartieRun};
use crate::records::log::Termination;
use crate::shutdown::Shutdown;

// why re-exported: a job is what a runner plays; it lives in its own module
// so that observers and schedules can name it without the runner.
pub use crate::play::job::Job;

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

/// The jobs not yet started, shared by the slots; an iterator, so that a
/// schedule can be generated as it is played (constant memory).
type JobQueue = Arc<Mutex<Box<dyn Iterator<Item = Job> + Send>>>;

/// A run that did not end normally: a worker panicked (a bug in the
/// arbiter). The games finished before were handed over.
#[derive(Debug)]
pub struct RunError {
    pub panics: Vec<String>,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal error: a game worker panicked ({}); no further game was started, \
             the games finished before are in the logs",
            self.panics.join("; ")
        )
    }
}

impl std::error::Error for RunError {}

fn panic_message(e: tokio::task::JoinError) -> String {
    if !e.is_panic() {
        return e.to_string();
    }
    let payload = e.into_panic();
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_owned()
    }
}

/// The most engines a slot keeps running between their games: a field of
/// hundreds (a Swiss of a class) would otherwise hold an engine process per
/// engine and slot. The least recently used is shut down first.
pub const KEEP_PER_SLOT: usize = 64;

/// One slot's engine sessions (by engine index) and when each was last used.
#[derive(Default)]
pub struct SlotPool {
    sessions: Vec<Option<Session>>,
    last_used: Vec<u64>,
    tick: u64,
}

impl SlotPool {
    fn new(engines: usize) -> SlotPool {
        SlotPool {
            sessions: (0..engines).map(|_| None).collect(),
            last_used: vec![0; engines],
            tick: 0,
        }
    }

    /// Marks `engines` used now; returns the sessions beyond
    /// [`KEEP_PER_SLOT`], least recently used first, to shut down.
    fn used(&mut self, engines: &[usize]) -> Vec<Session> {
        self.tick += 1;
        for &e in engines {
            if let Some(t) = self.last_used.get_mut(e) {
                *t = self.tick;
            }
        }
        let mut alive: Vec<(u64, usize)> = self
            .sessions
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .map(|(e, _)| (self.last_used[e], e))
            .collect();
        if alive.len() <= KEEP_PER_SLOT {
            return Vec::new();
        }
        alive.sort_unstable();
        let excess = alive.len() - KEEP_PER_SLOT;
        alive[..excess]
            .iter()
            .filter_map(|&(_, e)| self.sessions[e].take())
            .collect()
    }
}

/// The engines of every slot between runs ([`Runner::run_kept`]).
#[derive(Default)]
pub struct Kept {
    slots: Vec<Option<SlotPool>>,
}

impl Kept {
    fn take(&mut self, slot: usize, engines: usize) -> SlotPool {
        self.slots
            .get_mut(slot)
            .and_then(Option::take)
            .filter(|p| p.sessions.len() == engines)
            .unwrap_or_else(|| SlotPool::new(engines))
    }

    fn put(&mut self, slot: usize, pool: SlotPool) {
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, || None);
        }
        self.slots[slot] = Some(pool);
    }

    /// Shuts every kept engine down.
    pub async fn close(self, grace: Duration) {
        for pool in self.slots.into_iter().flatten() {
            for s in pool.sessions.into_iter().flatten() {
                s.shutdown(grace).await;
            }
        }
    }
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
    /// Told when each game starts and after each ply (`--live`); `None`
    /// costs nothing.
    pub observer: Option<Arc<dyn GameObserver>>,
    /// The remote engines' connections (`remote=` engines); `None` when
    /// every engine is a process.
    pub remote: Option<RemoteEngines>,
    /// The event's stop: once it drains, no new game starts
    /// ([`Shutdown::default`]: never).
    pub shutdown: Shutdown,
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
        let spec = &self.engines[engine];
        let mut s = match (&spec.remote, &self.remote) {
            (None, _) => {
                Session::start(
                    &self.launch_spec(engine, slot),
                    self.handshake_timeout,
                    self.traffic.clone(),
                )
                .await?
            }
            (Some(_), Some(remote)) => {
                // A session no game holds (the pre-event check's, or one
                // an earlier game gave back): handshaken, options set. why
                // only while open: a connection gone since is replaced as a
                // fresh process would be, with a fresh one.
                match remote
                    .acquire(engine, spec, game.as_str(), self.quit_grace)
                    .await?
                {
                    Acquired::Session(s) => return Ok(s),
                    Acquired::Link(link) => {
                        Session::start_on_link(link, self.handshake_timeout, self.traffic.clone())
                            .await?
                    }
                }
            }
            (Some(id), None) => {
                return Err(Fault::Dropped {
                    reason: format!("remote engine {id}, but no remote endpoint is open"),
                })
            }
        };
        if !s.plays(game.as_str()) {
            let games = s.games.join(" ");
            s.shutdown(self.quit_grace).await;
            return Err(Fault::WrongGame {
                game: game.to_string(),
                games,
            });
        }
        let spec = &self.engines[engine];
        s.set_options(&spec.options).await?;
        if spec.ponder {
            s.enable_ponder(&spec.name, &spec.options).await?;
        }
        Ok(s)
    }

    /// Runs `jobs` (in order, `concurrency` at a time) and hands each result
    /// to `on_result` as it finishes, in the order they finish; the engines
    /// are shut down at the end (see [`Runner::run_kept`] to keep them).
    pub async fn run<J>(
        &self,
        jobs: J,
        on_result: impl FnMut(Finished) -> Flow,
    ) -> Result<(), RunError>
    where
        J: IntoIterator<Item = Job>,
        J::IntoIter: Send + 'static,
    {
        let mut kept = Kept::default();
        let result = self.run_kept(jobs, &mut kept, on_result).await;
        kept.close(self.quit_grace).await;
        self.close_remote().await;
        result
    }

    /// Runs `jobs` (in order, `concurrency` at a time) and hands each result
    /// to `on_result` as it finishes, in the order they finish.
    ///
    /// A game's result is handed over (and so logged) before an engine that
    /// misbehaved in it is shut down. If a worker panics, no new game starts,
    /// the games in flight finish and are handed over, and the panic is
    /// returned as an error: the run fails loudly instead of quietly ending.
    ///
    /// The slots' engines stay in `kept` for the next call (an event played
    /// in batches, such as a Swiss round by round, restarts no engine between
    /// batches); [`Kept::close`] shuts them down.
    pub async fn run_kept<J>(
        &self,
        jobs: J,
        kept: &mut Kept,
        mut on_result: impl FnMut(Finished) -> Flow,
    ) -> Result<(), RunError>
    where
        J: IntoIterator<Item = Job>,
        J::IntoIter: Send + 'static,
    {
        let jobs = jobs.into_iter();
        // why: never more slots (each with its own engines) than games.
        let slots = match jobs.size_hint() {
            (_, Some(most)) => self.concurrency.clamp(1, most.max(1)),
            (_, None) => self.concurrency.max(1),
        };
        let queue: JobQueue = Arc::new(Mutex::new(Box::new(jobs)));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut workers = tokio::task::JoinSet::new();
        for slot in 0..slots {
            let (runner, queue, stop, tx) = (
                self.clone(),
                Arc::clone(&queue),
                Arc::clone(&stop),
                tx.clone(),
            );
            let pool = kept.take(slot, self.engines.len());
            workers.spawn(async move { (slot, runner.slot(slot, pool, queue, stop, tx).await) });
        }
        drop(tx);
        let mut panics = Vec::new();
        let mut results_open = true;
        while results_open || !workers.is_empty() {
            tokio::select! {
                done = rx.recv(), if results_open => match done {
                    Some((done, ack)) => {
                        if on_result(done) == Flow::Stop {
                            stop.store(true, Ordering::SeqCst);
                        }
                        let _ = ack.send(());
                    }
                    None => results_open = false,
                },
                Some(joined) = workers.join_next(), if !workers.is_empty() => {
                    match joined {
                        Ok((slot, pool)) => kept.put(slot, pool),
                        Err(e) => {
                            stop.store(true, Ordering::SeqCst);
                            tracing::error!("a game worker failed: {e}");
                            panics.push(panic_message(e));
                        }
                    }
                }
            }
        }
        if panics.is_empty() {
            Ok(())
        } else {
            Err(RunError { panics })
        }
    }

    /// Plays jobs from `queue` until it is empty or `stop` is set; returns
    /// the slot's engines, still running.
    async fn slot(
        &self,
        slot: usize,
        mut pool: SlotPool,
        queue: JobQueue,
        stop: Arc<AtomicBool>,
        results: mpsc::UnboundedSender<(Finished, oneshot::Sender<()>)>,
    ) -> SlotPool {
        loop {
            // why the drain too: a --live event's first signal starts no
            // new game; the games in flight finish (crate::shutdown).
            if stop.load(Ordering::SeqCst) || !self.shutdown.is_running() {
                break;
            }
            let next = queue.lock().ok().and_then(|mut q| q.next());
            let Some(job) = next else {
                break;
            };
            let sessions = &mut pool.sessions;
            let (played, partie, retired) = match self.partie {
                Some(target) => {
                    let (played, games) = self.play_partie(slot, &job, target, sessions).await;
                    (played, games, Vec::new())
                }
                None => {
                    let (played, retired) = self.play_job(slot, &job, sessions).await;
                    (played, Vec::new(), retired)
                }
            };
            self.give_back_remote(&job, &mut pool.sessions);
            let idle = pool.used(&[job.south, job.north]);
            let (ack, logged) = oneshot::channel();
            let sent = results.send((
                Finished {
                    job,
                    played,
                    partie,
                },
                ack,
            ));
            // why wait: the game is in the results log before the engine that
            // lost it is shut down (its grace period would widen the window in
            // which a kill of the arbiter loses the game).
            if sent.is_ok() {
                let _ = logged.await;
            }
            for s in retired.into_iter().chain(idle) {
                s.shutdown(self.quit_grace).await;
            }
            if sent.is_err() {
                break;
            }
        }
        pool
    }

    /// Gives the job's remote engines' sessions back to the event
    /// ([`crate::contender::remote::IdleSessions`]), for their next game in any slot.
    fn give_back_remote(&self, job: &Job, sessions: &mut [Option<Session>]) {
        let Some(remote) = &self.remote else {
            return;
        };
        for engine in [job.south, job.north] {
            if self.engines[engine].remote.is_none() {
                continue;
            }
            if let Some(session) = sessions.get_mut(engine).and_then(Option::take) {
                remote.idle.keep(engine, session);
            }
        }
    }

    /// Shuts down the remote engines' sessions no game holds (the event's
    /// end; the slots' own engines are in [`Kept`]).
    pub async fn close_remote(&self) {
        if let Some(remote) = &self.remote {
            remote.idle.close(self.quit_grace).await;
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
            let (played, retired) = self.play_job(slot, &game, sessions).await;
            // why now: a Partie's games are logged when it ends; an offender
            // is not kept waiting that long.
            for s in retired {
                s.shutdown(self.quit_grace).await;
            }
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

    /// The session of `engine` for this slot, started if there is none (or
    /// the one there has exited).
    async fn session_for(
        &self,
        slot: usize,
        engine: usize,
        game: GameId,
        sessions: &mut [Option<Session>],
    ) -> Result<Session, Fault> {
        if let Some(mut s) = sessions[engine].take() {
            if s.is_alive() {
                return Ok(s);
            }
            s.shutdown(self.quit_grace).await;
        }
        self.start_engine(engine, slot, game).await
    }

    /// `engine`'s session, started on the game (`newgame`, `isready`). An
    /// engine found gone at this point (it exited or crashed after the last
    /// game, noticed or not) is restarted once, as the spec says, so the
    /// verdict never depends on when the arbiter noticed the exit; a second
    /// failure, or any other fault, loses the game.
    async fn ready_session(
        &self,
        slot: usize,
        engine: usize,
        plan: &GamePlan,
        sessions: &mut [Option<Session>],
    ) -> Result<Session, (Fault, Option<Session>)> {
        let mut session = self
            .session_for(slot, engine, plan.game, sessions)
            .await
            .map_err(|f| (f, None))?;
        match game::start(plan, &mut session, self.timeouts).await {
            Ok(()) => return Ok(session),
            Err(fault @ Fault::Gone { .. }) => {
                tracing::warn!(
                    engine = %self.engines[engine].name,
                    "engine gone before the game started ({fault}); restarting it"
                );
                session.shutdown(self.quit_grace).await;
            }
            Err(fault) => return Err((fault, Some(session))),
        }
        let mut session = self
            .start_engine(engine, slot, plan.game)
            .await
            .map_err(|f| (f, None))?;
        match game::start(plan, &mut session, self.timeouts).await {
            Ok(()) => Ok(session),
            Err(fault) => Err((fault, Some(session))),
        }
    }

    /// Plays one game; returns it with the sessions of engines that broke the
    /// protocol, which the caller shuts down (after logging the game). Every
    /// log event inside carries the game's span: its number in the event,
    /// round, game id and engines (`RUST_LOG`, docs/arbiter.md).
    async fn play_job(
        &self,
        slot: usize,
        job: &Job,
        sessions: &mut [Option<Session>],
    ) -> (Played, Vec<Session>) {
        use tracing::Instrument;
        // why error level: a span is shown only when its level is enabled;
        // at ERROR it names the game on every warning the default filter
        // (`warn`) lets through. It costs one span per game.
        let span = tracing::error_span!(
            "game",
            n = job.index + 1,
            round = %job.round,
            game = %job.game,
            south = %self.engines[job.south].name,
            north = %self.engines[job.north].name,
        );
        self.play_job_in_span(slot, job, sessions)
            .instrument(span)
            .await
    }

    async fn play_job_in_span(
        &self,
        slot: usize,
        job: &Job,
        sessions: &mut [Option<Session>],
    ) -> (Played, Vec<Session>) {
        let mut plan = GamePlan {
            game: job.game,
            start_position: job.start_position.clone(),
            tc: [self.engines[job.south].tc, self.engines[job.north].tc],
            max_plies: self.max_plies,
            adjudication: self.adjudication.clone(),
            ponder: [false; 2],
        };
        let sides = [job.south, job.north];
        // why two remote engines in the order of their index, not South
        // first: a game waiting for a remote engine busy in another game
        // holds the one it took already; taken in one order everywhere, no
        // two games each hold what the other waits for. (A process is never
        // waited for: with one, South first as always.)
        let remote = |e: usize| self.engines[e].remote.is_some();
        let order = if remote(sides[0]) && remote(sides[1]) && sides[1] < sides[0] {
            [Side::North, Side::South]
        } else {
            Side::BOTH
        };
        let mut ready: [Option<Session>; 2] = [None, None];
        for side in order {
            let engine = sides[side.index()];
            match self.ready_session(slot, engine, &plan, sessions).await {
                Ok(s) => ready[side.index()] = Some(s),
                Err((fault, offender)) => {
                    let mut played = game::lost_at_start(side, &fault);
                    if offender.is_none() {
                        // It could not be started: say so in the verdict.
                        let detail = format!("{} at start: {fault}", self.engines[engine].name);
                        played.termination = match fault {
                            Fault::Gone { .. } => game::gone(side, detail),
                            // A remote engine that did not come: a no-show.
                            Fault::Dropped { .. } => Termination::Disconnect { side, detail },
                            _ => Termination::Unresponsive { side, detail },
                        };
                    }
                    let mut others: Vec<&mut Session> = ready.iter_mut().flatten().collect();
                    let mut offender = offender;
                    if let Some(o) = offender.as_mut() {
                        others.push(o);
                    }
                    game::send_gameover(&mut others, &played).await;
                    // The engine started before this one did nothing wrong.
                    let first = side.opponent();
                    if let Some(s) = ready[first.index()].take() {
                        sessions[sides[first.index()]] = Some(s);
                    }
                    return (played, offender.into_iter().collect());
                }
            }
        }
        let [Some(mut south), Some(mut north)] = ready else {
            let detail = "internal: engine session missing".to_string();
            let played = Played {
                result: GameResult::Draw,
                termination: Termination::Interrupted { detail },
                moves: Vec::new(),
                scores: None,
            };
            return (played, Vec::new());
        };
        plan.ponder = [south.ponders(), north.ponders()];
        let played = match &self.observer {
            None => game::play_started(&plan, [&mut south, &mut north], self.timeouts).await,
            Some(observer) => {
                let clocks = plan.tc.map(crate::play::tc::Clock::new);
                observer.game_started(&GameStart {
                    job,
                    clocks_ms: clocks_ms(&clocks),
                });
                let watch = GameWatch {
                    observer: observer.as_ref(),
                    job,
                };
                let sessions = [&mut south, &mut north];
                game::play_observed(&plan, sessions, self.timeouts, Some(&watch)).await
            }
        };
        // An engine that broke the protocol is not trusted with another game;
        // one with `restart=on` gets a fresh process for every game.
        let offender = played.offender();
        let mut retired = Vec::new();
        for (side, session) in [(Side::South, south), (Side::North, north)] {
            let engine = sides[side.index()];
            let restart = self.engines[engine].restart == crate::contender::config::Restart::On;
            if offender == Some(side) || restart {
                retired.push(session);
            } else {
                sessions[sides[side.index()]] = Some(session);
            }
        }
        (played, retired)
    }
}

/// `name` with every character but ASCII letters, digits, `-` and `_` as `_`
/// (for file names).
pub fn sanitize(name: &str) -> String {
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
