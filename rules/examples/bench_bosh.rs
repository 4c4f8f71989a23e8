//! Bosh speed check: random playouts per second and perft nodes per second.
//!
//! `cargo run --release -p mancala-rules --example bench_bosh [perft depth] [playouts]`

use std::time::Instant;

use mancala_rules::games::bosh::Bosh;
use mancala_rules::perft::perft;
use mancala_rules::{Game, GameRecord};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(11);
    let playouts: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);

    let start = Bosh::start();
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft(&start, d);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "perft {d:2}: {n:>12}  {secs:8.3}s  {:>12.0} nodes/s",
            n as f64 / secs
        );
    }

    // Playouts through the game record, so the cycle rule applies.
    let mut rng = SmallRng::seed_from_u64(1);
    let (mut plies, mut rounds, mut longest) = (0u64, 0u64, 0u64);
    let mut wins = [0u32; 2];
    let t = Instant::now();
    for _ in 0..playouts {
        let mut record = GameRecord::new(Bosh::start());
        let mut n = 0;
        while !record.is_over() {
            let moves = record.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            if record.play(mv).is_err() {
                unreachable!("a legal move was refused");
            }
            n += 1;
        }
        plies += n;
        longest = longest.max(n);
        rounds += u64::from(record.position().round() - 1);
        if let Some(w) = record.outcome().and_then(|o| o.result.winner()) {
            wins[w.index()] += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{playouts} playouts in {secs:.2}s: {:.0} playouts/s, {:.0} plies/s; \
         mean {:.1} plies, longest {longest}, mean {:.2} rounds; South won {}, North {}",
        f64::from(playouts) / secs,
        plies as f64 / secs,
        plies as f64 / f64::from(playouts),
        rounds as f64 / f64::from(playouts),
        wins[0],
        wins[1]
    );
}
