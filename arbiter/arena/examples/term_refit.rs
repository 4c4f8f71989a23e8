//! Bench: the server's database work at a term's size, on a database of
//! `term_db` (BENCHMARKS.md, "The arena at a term's scale";
//! `bench/arena_term.sh`).
//!
//! ```text
//! term_refit DB POOL [RUNS]
//! ```
//!
//! Times, RUNS times each (the median and the range): the whole refit of
//! pool POOL from the database (`store::scored`, then `ratings::rate_scored`:
//! what the server did on every refit before it kept a tally); the tally's
//! read at the server's start (`store::tally`) and a refit as the server
//! makes it now (a game added to the tally, a copy of it, `Tally::rate`);
//! and the pairing's restore at start (`store::legs` + `Pairing::restore`).
//! The database is opened through `db::open`, so its migrations run first
//! (timed: the first open of an older database migrates it).

use std::time::{Duration, Instant};

use arbiter_arena::ratings::{self, Game};
use arbiter_arena::{anchors, db, pairing::Pairing, store};
use mancala_rules::GameResult;

fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("term_refit: {msg}");
    std::process::exit(2)
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// "median (min–max) ms" of the runs.
fn summary(mut d: Vec<Duration>) -> String {
    d.sort();
    format!(
        "{:.1} ms ({:.1}–{:.1})",
        ms(d[d.len() / 2]),
        ms(d[0]),
        ms(d[d.len() - 1])
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        fail("usage: term_refit DB POOL [RUNS]");
    }
    let path = std::path::Path::new(&args[0]);
    let pool = &args[1];
    let runs: usize = match args.get(2) {
        None => 5,
        Some(s) => s
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| fail(format!("RUNS: not a positive number: {s:?}"))),
    };
    let (conn, open) = time(|| db::open_existing(path).unwrap_or_else(|e| fail(e)));
    println!("open + migrate: {:.1} ms", ms(open));
    let anchors = anchors::for_players(&conn).unwrap_or_else(|e| fail(e));

    let (mut read, mut fit, mut whole) = (Vec::new(), Vec::new(), Vec::new());
    let mut games = 0;
    let mut bots = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let (scored, r) = time(|| store::scored(&conn, pool).unwrap_or_else(|e| fail(e)));
        let (rated, f) = time(|| ratings::rate_scored(&scored, &anchors));
        whole.push(t.elapsed());
        read.push(r);
        fit.push(f);
        games = scored.len();
        bots = rated.len();
    }
    println!("refit from the database, {games} games, {bots} players, {runs} runs:");
    println!("  whole: {}", summary(whole));
    println!("  read (store::scored): {}", summary(read));
    println!("  fit (rate_scored): {}", summary(fit));

    let (mut read, mut refit) = (Vec::new(), Vec::new());
    let mut same = true;
    for _ in 0..runs {
        let ((mut tally, _), r) = time(|| store::tally(&conn, pool).unwrap_or_else(|e| fail(e)));
        read.push(r);
        let (rated, f) = time(|| {
            tally.add(&Game {
                south: "bot-001",
                north: "bot-002",
                result: GameResult::Draw,
            });
            tally.clone().rate(&anchors)
        });
        refit.push(f);
        same &= rated.len() == bots;
    }
    println!("the tally kept by the server, {runs} runs:");
    println!("  read at start (store::tally): {}", summary(read));
    println!(
        "  refit after a game (add, copy, Tally::rate): {}{}",
        summary(refit),
        if same { "" } else { " (players differ!)" }
    );

    let mut start = Vec::new();
    let mut legs_n = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let legs = store::legs(&conn, pool).unwrap_or_else(|e| fail(e));
        let _p = Pairing::restore(
            legs.iter()
                .map(|(s, n, p, l)| (s.as_str(), n.as_str(), *p, *l)),
        );
        legs_n = legs.len();
        start.push(t.elapsed());
    }
    println!(
        "pairing restore (store::legs + Pairing::restore), {legs_n} legs: {}",
        summary(start)
    );
}
