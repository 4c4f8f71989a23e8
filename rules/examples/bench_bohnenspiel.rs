//! Speed of the Bohnenspiel rules: random playouts and perft.
//!
//! `cargo run -p mancala-rules --release --example bench_bohnenspiel [seconds]`
//!
//! A playout is a full game from the start position with uniformly random
//! legal moves, the cycle rule included. Two loops are measured: through
//! `GameRecord` (what the arbiter uses), and a lean loop that applies the same
//! rules (status first, then the third-occurrence rule over the positions since
//! the stores last changed) with reused buffers, as an engine would.
//! Rates are per second of this thread's CPU time where Linux reports it.

use std::time::{Duration, Instant};

use mancala_rules::games::bohnenspiel::{Bohnenspiel, Hemprich};
use mancala_rules::perft::perft;
use mancala_rules::{EndReason, Game, GameRecord, Outcome, RepetitionEffect};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Reused buffers of the lean loop.
struct Buffers<G: Game> {
    moves: Vec<G::Move>,
    /// (zobrist, position) since the history key last changed.
    history: Vec<(u64, G)>,
}

/// One random game with the cycle rule; returns its outcome and length.
fn lean_playout<G: Game>(rng: &mut SmallRng, buf: &mut Buffers<G>) -> (Outcome, u32) {
    let mut pos = G::start();
    buf.history.clear();
    let mut plies = 0;
    loop {
        if buf
            .history
            .last()
            .is_some_and(|(_, g)| g.history_key() != pos.history_key())
        {
            buf.history.clear();
        }
        let hash = pos.zobrist();
        buf.history.push((hash, pos.clone()));
        if let Some(outcome) = pos.status() {
            return (outcome, plies);
        }
        let seen = buf
            .history
            .iter()
            .filter(|(h, g)| *h == hash && *g == pos)
            .count();
        if seen >= G::REPETITION_LIMIT {
            match pos.on_repetition() {
                RepetitionEffect::GameOver(outcome) => return (outcome, plies),
                RepetitionEffect::Continue(next) => {
                    buf.history.clear();
                    pos = next;
                    continue;
                }
            }
        }
        buf.moves.clear();
        pos.legal_moves(&mut buf.moves);
        let mv = buf.moves[rng.random_range(0..buf.moves.len())];
        pos.play(mv);
        plies += 1;
    }
}

fn record_playout<G: Game>(rng: &mut SmallRng) -> (Outcome, u32) {
    let mut record = GameRecord::new(G::start());
    loop {
        if let Some(outcome) = record.outcome() {
            return (outcome, record.moves().len() as u32);
        }
        let legal = record.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        // The move comes from the legal list, so it cannot be refused.
        let _ = record.play(mv);
    }
}

/// CPU time of this thread (Linux), so that rates stay meaningful on a busy
/// machine; `None` elsewhere, and the rates then use wall time.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Seconds spent since `(wall, cpu)` was taken: CPU time where available.
fn elapsed((wall, cpu): (Instant, Option<Duration>)) -> f64 {
    match (cpu, cpu_time()) {
        (Some(before), Some(now)) => (now - before).as_secs_f64(),
        _ => wall.elapsed().as_secs_f64(),
    }
}

/// Runs `playout` for about `budget`; prints the rate and the game statistics.
fn measure(name: &str, budget: Duration, mut playout: impl FnMut() -> (Outcome, u32)) {
    let clock = (Instant::now(), cpu_time());
    let start = clock.0;
    let (mut games, mut plies, mut cycles, mut longest) = (0u64, 0u64, 0u64, 0u32);
    while start.elapsed() < budget {
        for _ in 0..1000 {
            let (outcome, n) = playout();
            games += 1;
            plies += u64::from(n);
            longest = longest.max(n);
            cycles += u64::from(outcome.reason == EndReason::Cycle);
        }
    }
    let secs = elapsed(clock);
    println!(
        "{name:<40} {:>10.0} playouts/s  {:>11.0} plies/s  (avg {:.1} plies, longest {longest}, {:.3}% cycles)",
        games as f64 / secs,
        plies as f64 / secs,
        plies as f64 / games as f64,
        100.0 * cycles as f64 / games as f64,
    );
}

fn bench_perft<G: Game>(name: &str, depth: u32) {
    let clock = (Instant::now(), cpu_time());
    let leaves = perft(&G::start(), depth);
    let secs = elapsed(clock);
    println!(
        "{name:<40} perft({depth}) = {leaves}  {:>12.0} leaves/s",
        leaves as f64 / secs
    );
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds);
    let mut rng = SmallRng::seed_from_u64(0xB0E4);

    let mut buf = Buffers::<Bohnenspiel> {
        moves: Vec::new(),
        history: Vec::new(),
    };
    measure("bohnenspiel (lean loop)", budget, || {
        lean_playout(&mut rng, &mut buf)
    });
    let mut buf = Buffers::<Hemprich> {
        moves: Vec::new(),
        history: Vec::new(),
    };
    measure("bohnenspiel-hemprich (lean loop)", budget, || {
        lean_playout(&mut rng, &mut buf)
    });
    measure("bohnenspiel (GameRecord)", budget, || {
        record_playout::<Bohnenspiel>(&mut rng)
    });
    measure("bohnenspiel-hemprich (GameRecord)", budget, || {
        record_playout::<Hemprich>(&mut rng)
    });
    bench_perft::<Bohnenspiel>("bohnenspiel", 10);
    bench_perft::<Hemprich>("bohnenspiel-hemprich", 10);
}
