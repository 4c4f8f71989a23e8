//! Speed of the Kimasai rules: random playouts per second and perft nodes per
//! second from the start position.
//!
//! `cargo run -p mancala-rules --release --example bench_kimasai [perft depth]`

use std::time::Instant;

use mancala_rules::games::kimasai::Kimasai;
use mancala_rules::perft::perft;
use mancala_rules::Game;

/// A tiny xorshift generator: the example needs no dependency.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16);
    let start = Kimasai::start();

    // Random playouts without the record's repetition bookkeeping (Kimasai
    // positions cannot repeat, so every playout ends in a loss).
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut moves = Vec::with_capacity(24);
    let (mut games, mut plies) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < 2.0 {
        for _ in 0..1000 {
            let mut pos = start;
            loop {
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
                plies += 1;
            }
            games += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "playouts: {games} in {secs:.2} s = {:.0}/s, {:.1} plies/game, {:.1} M plies/s",
        games as f64 / secs,
        plies as f64 / games as f64,
        plies as f64 / secs / 1e6
    );

    let t = Instant::now();
    let nodes = perft(&start, depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {secs:.2} s = {:.1} M nodes/s",
        nodes as f64 / secs / 1e6
    );
}
