//! Restart cost of an engine: spawn → `quit` → exit → reap, and spawn → SIGKILL
//! → reap, of `testbot --mode instant` (no handshake).
//!
//! ```text
//! cargo build --release -p testbots
//! cargo run --release -p arbiter --example bench_restart [-- RUNS [PATH-TO-TESTBOT]]
//! ```
//!
//! By default the testbot is looked up next to this example's profile directory
//! (`target/<profile>/testbot`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use arbiter_core::contender::process::{EngineProcess, Exit, LaunchSpec};

fn default_testbot() -> Option<PathBuf> {
    // target/<profile>/examples/bench_restart → target/<profile>/testbot
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.join("testbot"))
}

fn summary(label: &str, mut micros: Vec<f64>) {
    micros.sort_by(f64::total_cmp);
    let mean = micros.iter().sum::<f64>() / micros.len() as f64;
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q).round() as usize];
    println!(
        "{label}: mean {mean:.0} µs, median {:.0} µs, p95 {:.0} µs, max {:.0} µs over {} runs",
        at(0.5),
        at(0.95),
        at(1.0),
        micros.len()
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let runs: usize = match args.next() {
        Some(n) => n.parse()?,
        None => 200,
    };
    let runs = runs.max(1);
    let testbot = args
        .next()
        .map(PathBuf::from)
        .or_else(default_testbot)
        .ok_or("cannot locate testbot")?;
    if !testbot.exists() {
        return Err(format!(
            "{} not found: build it with `cargo build [--release] -p testbots`",
            testbot.display()
        )
        .into());
    }
    let spec = LaunchSpec::new(&testbot).args(["--mode", "instant"]);

    for (label, grace) in [
        ("spawn + quit + reap", Duration::from_secs(5)),
        ("spawn + kill + reap", Duration::ZERO),
    ] {
        let mut micros = Vec::with_capacity(runs);
        for run in 0..runs + 10 {
            let started = Instant::now();
            let engine = EngineProcess::spawn(&spec)?;
            let report = engine.shutdown(grace).await;
            let took = started.elapsed();
            let expected_clean = !grace.is_zero();
            if expected_clean && (report.exit != Some(Exit::Code(0)) || report.forced) {
                return Err(format!("unexpected shutdown: {report:?}").into());
            }
            if report.exit.is_none() {
                return Err(format!("engine not reaped: {report:?}").into());
            }
            if run >= 10 {
                // the first runs warm the page cache and the runtime
                micros.push(took.as_secs_f64() * 1e6);
            }
        }
        summary(label, micros);
    }
    Ok(())
}
