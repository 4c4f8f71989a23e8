//! `stop` latency through the protocol: start the engine binary, and for each
//! sample send `position startpos`, `go infinite`, wait a while, send `stop`
//! and time until the `bestmove` line arrives.
//!
//! ```text
//! cargo build --release -p engine --bin engine --example stop_latency
//! target/release/examples/stop_latency [--samples N] [--think-ms MIN-MAX] [--game ID]... [--engine PATH]
//! ```
//!
//! Defaults: 100 samples per game id, thinking 20–80 ms before `stop` (varied
//! so the stop lands at all points of an iteration), every game id, the
//! `engine` binary next to this example's profile directory.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use mancala_rules::GameId;

struct Settings {
    samples: usize,
    think: (u64, u64),
    games: Vec<GameId>,
    engine: Option<PathBuf>,
}

fn parse_args() -> Result<Settings, String> {
    let mut s = Settings {
        samples: 100,
        think: (20, 80),
        games: Vec::new(),
        engine: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let bad = || format!("{flag} {value}: not understood");
        match flag.as_str() {
            "--samples" => s.samples = value.parse().map_err(|_| bad())?,
            "--think-ms" => {
                let (a, b) = value.split_once('-').ok_or_else(bad)?;
                s.think = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
                if s.think.0 > s.think.1 {
                    return Err(bad());
                }
            }
            "--game" => s.games.push(value.parse().map_err(|e| format!("{e}"))?),
            "--engine" => s.engine = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if s.games.is_empty() {
        s.games = GameId::ALL.to_vec();
    }
    s.samples = s.samples.max(1);
    Ok(s)
}

fn default_engine() -> Option<PathBuf> {
    // target/<profile>/examples/stop_latency → target/<profile>/engine
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.join("engine"))
}

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &PathBuf) -> Result<Engine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Engine {
            child,
            input,
            output,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("write to engine: {e}"))
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            match self.output.read_line(&mut line) {
                Ok(0) => return Err(format!("engine exited before {prefix}")),
                Ok(_) if line.starts_with(prefix) => return Ok(line.trim_end().to_string()),
                Ok(_) => {}
                Err(e) => return Err(format!("read from engine: {e}")),
            }
        }
    }
}

/// A tiny xorshift generator for the think times.
struct XorShift(u64);

impl XorShift {
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + self.0 % (hi - lo + 1)
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn run() -> Result<(), String> {
    let s = parse_args()?;
    let path = s
        .engine
        .clone()
        .or_else(default_engine)
        .ok_or("cannot locate the engine binary")?;
    let mut engine = Engine::start(&path)?;
    engine.send("umi")?;
    engine.wait_for("umiok")?;
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    println!("| game | samples | think ms | median ms | p90 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|---:|");
    for &id in &s.games {
        engine.send(&format!("newgame {id}"))?;
        engine.send("position startpos")?;
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        let mut ms = Vec::with_capacity(s.samples);
        for _ in 0..s.samples {
            engine.send("go infinite")?;
            std::thread::sleep(Duration::from_millis(rng.between(s.think.0, s.think.1)));
            let sent = Instant::now();
            engine.send("stop")?;
            engine.wait_for("bestmove")?;
            ms.push(sent.elapsed().as_secs_f64() * 1e3);
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "| {id} | {} | {}–{} | {:.2} | {:.2} | {:.2} | {:.2} |",
            ms.len(),
            s.think.0,
            s.think.1,
            percentile(&ms, 0.5),
            percentile(&ms, 0.9),
            percentile(&ms, 0.99),
            percentile(&ms, 1.0)
        );
    }
    engine.send("quit")?;
    let _ = engine.child.wait();
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stop_latency: {e}");
            ExitCode::from(1)
        }
    }
}
