//! Probe latency of a built database directory (BENCHMARKS.md):
//! `cargo run --release -p mancala-tablebase --example probe_latency -- DIR N`
//! loads layers 0..=N of bohnenspiel (timing the load with its checksum
//! checks), then times random in-memory probes: the value alone (what the
//! engine's search asks) and the full probe with the value-keeping moves.

use std::path::PathBuf;
use std::time::Instant;

use mancala_rules::games::bohnenspiel::Bohnenspiel;
use mancala_rules::{GameId, Side};
use mancala_tablebase::index::{layer_size, unrank};
use mancala_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: probe_latency DIR MAX_BEANS")?);
    let max: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or("usage: probe_latency DIR MAX_BEANS")?;
    let t = Instant::now();
    let tb = Tablebase::open(&dir)?;
    tb.load(GameId::Bohnenspiel, max)?;
    println!(
        "load layers 0..={max} (checksums checked): {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let mut rng = SmallRng::seed_from_u64(1);
    let positions: Vec<Bohnenspiel> = (0..200_000)
        .map(|_| {
            let n = rng.random_range(max / 2..=max);
            let board = unrank(n, rng.random_range(0..layer_size(n))).expect("in range");
            let rest = (72 - n) as u8;
            Bohnenspiel::new(board, [rest, 0], Side::South).expect("72 beans")
        })
        .collect();
    let t = Instant::now();
    let mut sum = 0i64;
    for p in &positions {
        sum += i64::from(tb.value(p).expect("in the database"));
    }
    let per = t.elapsed().as_secs_f64() / positions.len() as f64;
    println!(
        "value: {:.0} ns per probe (checksum of values {sum})",
        per * 1e9
    );
    let t = Instant::now();
    let mut moves = 0;
    for p in &positions {
        moves += tb.probe(p)?.expect("in the database").moves.len();
    }
    let per = t.elapsed().as_secs_f64() / positions.len() as f64;
    println!(
        "full probe with moves: {:.0} ns per probe ({moves} moves)",
        per * 1e9
    );
    Ok(())
}
