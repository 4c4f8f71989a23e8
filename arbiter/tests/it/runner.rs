//! The runner against real processes: what happens when a game worker
//! panics (a bug in the arbiter). Built on the library, because no input
//! from outside should be able to make a worker panic; a job that names an
//! engine the runner does not have is the arbiter's own mistake.

use std::time::Duration;

use arbiter_core::contender::config::parse_engines;
use arbiter_core::play::game::Timeouts;
use arbiter_core::play::runner::{Flow, Job, Runner};
use mancala_rules::{start_position, GameId};

use crate::common;

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
        remote: None,
        shutdown: Default::default(),
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

impl arbiter_core::play::observe::GameObserver for Seen {
    fn game_started(&self, start: &arbiter_core::play::observe::GameStart<'_>) {
        self.starts.lock().expect("lock").push(start.job.index);
        // tc=30+0.1: both clocks start full.
        assert_eq!(start.clocks_ms, [Some(30_000), Some(30_000)]);
    }

    fn ply(&self, job: &Job, ply: &arbiter_core::play::observe::PlyEvent<'_>) {
        self.plies.lock().expect("lock").push((
            job.index,
            ply.ply,
            ply.mv.to_owned(),
            ply.game.position_string(),
        ));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_observer_sees_every_ply_as_it_is_played() {
    let s = common::Scratch::new("runner", "observer");
    let seen = std::sync::Arc::new(Seen::default());
    let runner = Runner {
        observer: Some(seen.clone()),
        remote: None,
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

/// What an observer was told, in order.
#[derive(Debug, PartialEq)]
enum Told {
    /// Game, ply, the line's depth, its pv's length.
    Thinking(usize, u32, Option<u32>, usize),
    Ply(usize, u32),
}

#[derive(Default)]
struct Heard(std::sync::Mutex<Vec<Told>>);

impl arbiter_core::play::observe::GameObserver for Heard {
    fn game_started(&self, _: &arbiter_core::play::observe::GameStart<'_>) {}

    fn ply(&self, job: &Job, ply: &arbiter_core::play::observe::PlyEvent<'_>) {
        self.0
            .lock()
            .expect("lock")
            .push(Told::Ply(job.index, ply.ply));
    }

    fn thinking(&self, job: &Job, t: &arbiter_core::play::observe::ThinkingEvent<'_>) {
        self.0.lock().expect("lock").push(Told::Thinking(
            job.index,
            t.ply,
            t.info.depth,
            t.info.pv.len(),
        ));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_observer_hears_each_search_before_its_move() {
    let s = common::Scratch::new("runner", "thinking");
    let reference = |name: &str| {
        vec![
            format!("cmd={}", common::engine()),
            format!("name={name}"),
            "option.Level=4".into(),
            "st=0.05".into(),
            s.dir_arg(),
        ]
    };
    let heard = std::sync::Arc::new(Heard::default());
    let runner = Runner {
        engines: parse_engines(&[reference("A"), reference("B")], &[], None).expect("engines"),
        observer: Some(heard.clone()),
        remote: None,
        max_plies: Some(12),
        ..runner(&s)
    };
    runner
        .run(vec![job(0, 0, 1)], |_| Flow::Continue)
        .await
        .expect("runs");
    let told = heard.0.lock().expect("lock");
    let plies = told.iter().filter(|t| matches!(t, Told::Ply(..))).count();
    assert_eq!(plies, 12, "{told:?}");
    let mut searched = 0;
    for (i, t) in told.iter().enumerate() {
        if let Told::Thinking(game, ply, depth, pv) = *t {
            searched += 1;
            assert!(
                depth.is_some() || pv > 0,
                "a line with something to show: {t:?}"
            );
            // Every line comes while its ply is being thought about: after
            // the ply before, and before its own ply is played.
            let played_before = told[..i]
                .iter()
                .filter(|t| matches!(t, Told::Ply(..)))
                .count() as u32;
            assert_eq!(ply, played_before + 1, "{t:?} after {played_before} plies");
            assert!(
                told[i..].contains(&Told::Ply(game, ply)),
                "its move follows: {t:?}"
            );
        }
    }
    assert!(
        searched >= plies,
        "the reference engine reports each search: {told:?}"
    );
    s.assert_no_leftovers();
}
