//! How long fixed-depth Bosh matches run under the round-start ruling (a
//! match is drawn when a round start occurs for the third time), in process:
//! the engine's search (`Searcher::for_record`, so it knows the rule) at a
//! fixed depth for each side, a 16 MiB table per engine cleared per match as
//! after `newgame`, every rule applied through `GameRecord`. Each match starts
//! from a few random plies, and that position counts as the match's first
//! round start, as when the arbiter sends `position pos <opening> moves …`.
//! Colours alternate between matches.
//!
//! ```text
//! cargo run --release -p engine --example bosh_rounds -- \
//!     [--games N] [--opening PLIES] [--seed N] [--max-plies N] [SOUTH:NORTH]...
//! ```
//!
//! Defaults: 100 matches, 4 opening plies, seed 1, the arbiter's default
//! `--max-plies` of 5000 as the backstop, and the pairs `4:6` and `1:1`.
//! Prints one Markdown table row per pair of depths: plies and rounds
//! (median and maximum), how the matches ended, and how many reached the
//! backstop.

use std::process::ExitCode;

use engine::control::SearchControl;
use engine::openings::random_line;
use engine::search::{Limits, Searcher};
use engine::tt::Table;
use mancala_rules::games::bosh::Bosh;
use mancala_rules::{EndReason, Game, GameRecord};
use rand::rngs::SmallRng;
use rand::SeedableRng;

struct Config {
    games: u32,
    opening: u32,
    seed: u64,
    max_plies: usize,
    pairs: Vec<[u32; 2]>,
}

fn parse_args() -> Result<Config, String> {
    let mut config = Config {
        games: 100,
        opening: 4,
        seed: 1,
        max_plies: 5000,
        pairs: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value"))
                .and_then(|v| v.parse::<u64>().map_err(|_| format!("bad {name} {v:?}")))
        };
        match arg.as_str() {
            "--games" => config.games = value("--games")? as u32,
            "--opening" => config.opening = value("--opening")? as u32,
            "--seed" => config.seed = value("--seed")?,
            "--max-plies" => config.max_plies = value("--max-plies")? as usize,
            pair => {
                let parsed = pair.split_once(':').and_then(|(s, n)| {
                    Some([s.parse().ok()?, n.parse().ok()?])
                        .filter(|d: &[u32; 2]| d[0] > 0 && d[1] > 0)
                });
                config
                    .pairs
                    .push(parsed.ok_or_else(|| {
                        format!("bad pair {pair:?}, expected SOUTH:NORTH depths")
                    })?);
            }
        }
    }
    if config.pairs.is_empty() {
        config.pairs = vec![[4, 6], [1, 1]];
    }
    Ok(config)
}

/// One finished (or capped) match.
struct Match {
    plies: usize,
    /// Rounds played: the round number of the final position minus that of
    /// the start (a finished match's final round is never played).
    rounds: u32,
    reason: Option<EndReason>,
}

fn play(depths: [u32; 2], opening: &Bosh, max_plies: usize) -> Match {
    let mut record = GameRecord::new(opening.clone());
    let mut tables = [Table::new(16), Table::new(16)];
    while !record.is_over() && record.moves().len() < max_plies {
        let side = record.position().side_to_move();
        let control = SearchControl::new();
        let limits = Limits {
            depth: Some(depths[side.index()]),
            nodes: None,
        };
        let tt = &mut tables[side.index()];
        let best = Searcher::for_record(tt, &control, limits, &record)
            .run(record.position(), None, |_| {})
            .map(|r| r.best);
        let Some(best) = best else { break };
        if record.play(best).is_err() {
            break;
        }
    }
    Match {
        plies: record.moves().len(),
        rounds: record.position().round() - opening.round(),
        reason: record.outcome().map(|o| o.reason),
    }
}

fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

fn main() -> ExitCode {
    let config = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("bosh_rounds: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "| depths | matches | plies median | plies max | rounds median | rounds max | won | drawn: round start repeated | reached {} plies |",
        config.max_plies
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for depths in &config.pairs {
        // The same openings for every pair.
        let mut rng = SmallRng::seed_from_u64(config.seed);
        let (mut plies, mut rounds) = (Vec::new(), Vec::new());
        let (mut won, mut drawn, mut capped) = (0, 0, 0);
        for g in 0..config.games {
            let opening = random_line::<Bosh>(config.opening, &mut rng)
                .position()
                .clone();
            // Colours alternate: the first depth plays South in even matches.
            let seated = if g % 2 == 0 {
                *depths
            } else {
                [depths[1], depths[0]]
            };
            let m = play(seated, &opening, config.max_plies);
            plies.push(m.plies as u64);
            rounds.push(u64::from(m.rounds));
            match m.reason {
                Some(EndReason::MatchWon) => won += 1,
                Some(EndReason::RoundStartRepeated) => drawn += 1,
                Some(other) => eprintln!("match {g}: ended by {other}"),
                None => capped += 1,
            }
        }
        let (pmax, rmax) = (
            plies.iter().max().copied().unwrap_or(0),
            rounds.iter().max().copied().unwrap_or(0),
        );
        println!(
            "| {} vs {} | {} | {} | {pmax} | {} | {rmax} | {won} | {drawn} | {capped} |",
            depths[0],
            depths[1],
            config.games,
            median(&mut plies),
            median(&mut rounds),
        );
    }
    ExitCode::SUCCESS
}
