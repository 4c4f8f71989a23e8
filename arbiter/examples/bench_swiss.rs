//! Time to pair a Swiss round: `ENGINES` engines (default 1,000) over
//! `ROUNDS` rounds (default 9), each round paired from the results before
//! (random but reproducible pair results), timed per round on the thread's
//! CPU clock.
//!
//! ```text
//! cargo run --release -p arbiter --example bench_swiss [-- ENGINES ROUNDS]
//! ```

use std::time::Duration;

use arbiter_core::event::formats::swiss::Swiss;
use arbiter_core::event::formats::Played;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// CPU time of this thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid pointer to a timespec, written by the call.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let (engines, rounds) = (arg(1, 1000), arg(2, 9));
    let swiss = Swiss::new(engines, rounds, 1).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let mut rng = SmallRng::seed_from_u64(1);
    let mut history: Vec<Played> = Vec::new();
    let mut times = Vec::new();
    for _ in 0..rounds {
        let start = thread_cpu();
        let stage = swiss.pair(&history);
        times.push(thread_cpu() - start);
        let Some(stage) = stage else {
            println!(
                "round {}: no pairing without a repeat; the event ends",
                history.len() + 1
            );
            break;
        };
        let points = stage
            .pairings
            .iter()
            .map(|_| {
                let x = rng.random_range(0..=4);
                (x, 4 - x)
            })
            .collect();
        history.push(Played { stage, points });
    }
    for (r, t) in times.iter().enumerate() {
        println!("round {}: {:.2} ms", r + 1, t.as_secs_f64() * 1000.0);
    }
    let max = times.iter().max().copied().unwrap_or_default();
    let total: Duration = times.iter().sum();
    println!(
        "{engines} engines, {rounds} rounds: pairing a round takes at most {:.2} ms (mean {:.2} ms) of CPU",
        max.as_secs_f64() * 1000.0,
        total.as_secs_f64() * 1000.0 / times.len().max(1) as f64
    );
}
