//! Kujifunza speed: random playouts per second and perft nodes per second.
//!
//! `cargo run -p mancala-rules --release --example bench_kujifunza [seconds]`

use std::time::{Duration, Instant};

use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::perft::perft;
use mancala_rules::Game;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// One random game from the start, repetition ignored (random games end by a
/// lost front row or a blocked player long before any ply cap).
fn playout(rng: &mut SmallRng, moves: &mut Vec<<Kujifunza as Game>::Move>) -> usize {
    let mut pos = Kujifunza::start();
    for ply in 0..10_000 {
        moves.clear();
        pos.legal_moves(moves);
        if moves.is_empty() {
            return ply;
        }
        pos.play(moves[rng.random_range(0..moves.len())]);
    }
    10_000
}

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let budget = Duration::from_secs(seconds);

    let mut rng = SmallRng::seed_from_u64(1);
    let mut moves = Vec::new();
    let (mut games, mut plies) = (0u64, 0u64);
    let start = Instant::now();
    while start.elapsed() < budget {
        plies += playout(&mut rng, &mut moves) as u64;
        games += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "random playouts: {games} games, {plies} plies in {secs:.2} s: {:.0} games/s, {:.0} plies/s",
        games as f64 / secs,
        plies as f64 / secs
    );

    let start_pos = Kujifunza::start();
    for depth in 1..=7 {
        let t = Instant::now();
        let nodes = perft(&start_pos, depth);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "perft {depth}: {nodes} leaves in {secs:.3} s ({:.0} leaves/s)",
            nodes as f64 / secs.max(1e-9)
        );
        if secs > seconds as f64 {
            break;
        }
    }
}
