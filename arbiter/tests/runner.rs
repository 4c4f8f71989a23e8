//! The runner against real processes: what happens when a game worker
//! panics (a bug in the arbiter). Built on the library, because no input
//! from outside should be able to make a worker panic; a job that names an
//! engine the runner does not have is the arbiter's own mistake.

use std::time::Duration;

use arbiter::engine::config::parse_engines;
use arbiter::play::game::Timeouts;
use arbiter::play::runner::{Flow, Job, Runner};
use mancala_rules::{start_position, GameId};

mod common;

fn runner(s: &common::Scratch) -> Runner {
    let bot = |name: &str| {
        vec![
            format!("cmd={}", common::testbot()),
            format!("name={name}"),
            "arg=--mode".into(),
            "arg=random".into(),
            "tc=30+0.1".into(),
            s.dir_arg(),
        ]
    };
    Runner {
        engines: parse_engines(&[bot("A"), bot("B")], &[], None).expect("engines"),
        concurrency: 1,
        timeouts: Timeouts::default(),
        handshake_timeout: Duration::from_secs(10),
        max_plies: Some(30),
        stderr_dir: None,
        traffic: None,
        quit_grace: Duration::from_millis(500),
        partie: None,
        adjudication: Default::default(),
        observer: None,
    }
}

fn job(index: usize, south: usize, north: usize) -> Job {
    let game = GameId::Bohnenspiel;
    Job {
        index,
        round: (index + 1).to_string(),
        game,
        south,
        north,
        start_position: start_position(game).to_owned(),
        pair: index / 2,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_panic_fails_the_run_and_keeps_finished_games() {
    let s = common::Scratch::new("runner", "panic");
    let runner = runner(&s);
    // Job 1 names engine 7, which does not exist: the worker panics on it.
    let jobs = vec![job(0, 0, 1), job(1, 7, 0), job(2, 1, 0), job(3, 0, 1)];
    let mut finished = Vec::new();
    let result = runner
        .run(jobs, |done| {
            finished.push(done.job.index);
            Flow::Continue
        })
        .await;
    let err = result.expect_err("the panic is reported");
    let text = err.to_string();
    assert!(text.contains("panicked"), "{text}");
    assert!(text.contains("index out of bounds"), "{text}");
    // The game before the panic was handed over; nothing after it started.
    assert_eq!(finished, vec![0]);
    s.assert_no_leftovers();
}

/// What an observer was told: (job, ply, move, position after it).
#[derive(Default)]
struct Seen {
    starts: std::sync::Mutex<Vec<usize>>,
    plies: std::sync::Mutex<Vec<(usize, u32, String, String)>>,
}

impl arbiter::play::observe::GameObserver for Seen {
    fn game_started(&self, start: &arbiter::play::observe::GameStart<'_>) {
        self.starts.lock().expect("lock").push(start.job.index);
        // tc=30+0.1: both clocks start full.
        assert_eq!(start.clocks_ms, [Some(30_000), Some(30_000)]);
    }

    fn ply(&self, job: &Job, ply: &arbiter::play::observe::PlyEvent<'_>) {
        self.plies.lock().expect("lock").push((
            job.index,
            ply.ply,
            ply.mv.to_owned(),
            ply.position.to_owned(),
        ));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_observer_sees_every_ply_as_it_is_played() {
    let s = common::Scratch::new("runner", "observer");
    let seen = std::sync::Arc::new(Seen::default());
    let runner = Runner {
        observer: Some(seen.clone()),
        ..runner(&s)
    };
    let mut played = Vec::new();
    runner
        .run(vec![job(0, 0, 1), job(1, 1, 0)], |done| {
            played.push((done.job.index, done.played.moves));
            Flow::Continue
        })
        .await
        .expect("runs");
    assert_eq!(*seen.starts.lock().expect("lock"), [0, 1]);
    let plies = seen.plies.lock().expect("lock");
    for (index, moves) in &played {
        let mine: Vec<_> = plies.iter().filter(|p| p.0 == *index).collect();
        let told: Vec<&str> = mine.iter().map(|p| p.2.as_str()).collect();
        let logged: Vec<&str> = moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(told, logged, "game {index}");
        // Each position is the rules' position after that move.
        let mut game = mancala_rules::new_game(GameId::Bohnenspiel);
        for (n, p) in mine.iter().enumerate() {
            assert_eq!(p.1 as usize, n + 1);
            game.play(&p.2).expect("a legal move");
            assert_eq!(p.3, game.position_string(), "game {index} ply {}", n + 1);
        }
    }
    s.assert_no_leftovers();
}
