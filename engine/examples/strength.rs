//! Engine strength under a move-time limit, in process: the engine (the
//! library's `Searcher`, full strength, 16 MiB table cleared per game as after
//! `newgame`) against a random mover or a one-ply greedy mover that answer at
//! once. Games go in pairs from one opening (a few random plies), the engine
//! South in the first and North in the second; the repetition rules apply
//! through `GameRecord`.
//!
//! ```text
//! cargo run --release -p engine --example strength -- \
//!     [--game ID]... [--opponent random|greedy]... [--games N] [--movetime MS] \
//!     [--opening PLIES] [--seed N]
//! ```
//!
//! Defaults: every game, both opponents, 20 games, 100 ms, 2 opening plies,
//! seed 1. Prints one Markdown table row per game id and opponent.
//!
//! `--balance-depth N` draws an opening again when a depth-N search proves a
//! result for its side to move: in Bao la Kujifunza the start and many
//! positions a few random plies in are forced wins, and from a decided
//! opening even perfect play scores only half of a pair.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use engine::control::SearchControl;
use engine::eval::{greedy_move, Evaluate};
use engine::search::{mate_distance, Limits, Searcher};
use engine::tt::Table;
use mancala_rules::{with_game, GameId, GameRecord, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Games longer than this are adjudicated a draw (none came close in our runs).
const MAX_PLIES: usize = 5000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opponent {
    Random,
    /// The move whose resulting position evaluates best for the mover
    /// (a win at once first, a loss at once last).
    Greedy,
}

struct Settings {
    games: Vec<GameId>,
    opponents: Vec<Opponent>,
    pairs: u32,
    movetime: Duration,
    opening: u32,
    seed: u64,
    /// Openings whose side to move has a result proven by a search of this
    /// depth are drawn again (0: keep every opening).
    balance_depth: u32,
    /// A depth limit on top of the move time.
    depth: Option<u32>,
    /// Print every lost game (position string and moves) to stderr.
    verbose: bool,
}

fn parse_args() -> Result<Settings, String> {
    let mut s = Settings {
        games: Vec::new(),
        opponents: Vec::new(),
        pairs: 10,
        movetime: Duration::from_millis(100),
        opening: 2,
        seed: 1,
        depth: None,
        balance_depth: 0,
        verbose: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--verbose" {
            s.verbose = true;
            continue;
        }
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let number = || -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("{flag} {value}: not a number"))
        };
        match flag.as_str() {
            "--game" => s.games.push(value.parse().map_err(|e| format!("{e}"))?),
            "--opponent" => s.opponents.push(match value.as_str() {
                "random" => Opponent::Random,
                "greedy" => Opponent::Greedy,
                _ => return Err(format!("--opponent {value}: random or greedy")),
            }),
            "--games" => s.pairs = u32::try_from(number()?.div_ceil(2)).unwrap_or(u32::MAX),
            "--movetime" => s.movetime = Duration::from_millis(number()?),
            "--opening" => s.opening = u32::try_from(number()?).unwrap_or(u32::MAX),
            "--seed" => s.seed = number()?,
            "--balance-depth" => s.balance_depth = u32::try_from(number()?).unwrap_or(u32::MAX),
            "--depth" => s.depth = Some(u32::try_from(number()?).unwrap_or(u32::MAX)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if s.games.is_empty() {
        s.games = GameId::ALL.to_vec();
    }
    if s.opponents.is_empty() {
        s.opponents = vec![Opponent::Random, Opponent::Greedy];
    }
    Ok(s)
}

fn opponent_move<G: Evaluate>(who: Opponent, pos: &G, rng: &mut SmallRng) -> Option<G::Move> {
    let moves = pos.legal_move_list();
    match who {
        Opponent::Random => (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())]),
        Opponent::Greedy => greedy_move(pos),
    }
}

fn engine_move<G: Evaluate>(
    record: &GameRecord<G>,
    tt: &mut Table,
    movetime: Duration,
    depth: Option<u32>,
) -> Option<G::Move> {
    let control = SearchControl::new();
    control.set_budget(Instant::now(), movetime, movetime);
    let limits = Limits { depth, nodes: None };
    let mut searcher = Searcher::<G>::for_record(tt, &control, limits, record);
    searcher
        .run(record.position(), None, |_| {})
        .map(|r| r.best)
}

/// Whether a search to `depth` proves a win or a loss for the side to move.
fn decided<G: Evaluate>(record: &GameRecord<G>, tt: &mut Table, depth: u32) -> bool {
    if record.is_over() {
        return true;
    }
    let control = SearchControl::new();
    let limits = Limits {
        depth: Some(depth),
        nodes: None,
    };
    let mut searcher = Searcher::<G>::for_record(tt, &control, limits, record);
    searcher
        .run(record.position(), None, |_| {})
        .is_none_or(|r| mate_distance(r.score).is_some())
}

/// The totals of one game id against one opponent.
#[derive(Default)]
struct Tally {
    half_points: u32,
    games: u32,
    wins: u32,
    draws: u32,
    /// Losses, as "South"/"North" and the opening index, for the report.
    losses: Vec<String>,
    plies: u64,
    capped: u32,
    engine_moves: u64,
    /// Openings drawn again because they were decided (`--balance-depth`).
    rejected: u32,
}

fn play_pairs<G: Evaluate>(who: Opponent, s: &Settings) -> Tally {
    let mut rng = SmallRng::seed_from_u64(s.seed);
    let mut tt = Table::new(16);
    let mut t = Tally::default();
    for pair in 0..s.pairs {
        let opening = loop {
            let mut opening = GameRecord::new(G::start());
            for _ in 0..s.opening {
                match opponent_move(Opponent::Random, opening.position(), &mut rng) {
                    Some(m) if !opening.is_over() => {
                        let _ = opening.play(m);
                    }
                    _ => break,
                }
            }
            tt.clear();
            if s.balance_depth == 0 || !decided(&opening, &mut tt, s.balance_depth) {
                break opening;
            }
            t.rejected += 1;
        };
        for engine_side in [Side::South, Side::North] {
            tt.clear();
            let mut record = opening.clone();
            while !record.is_over() && record.moves().len() < MAX_PLIES {
                let pos = record.position();
                let mv = if pos.side_to_move() == engine_side {
                    t.engine_moves += 1;
                    engine_move(&record, &mut tt, s.movetime, s.depth)
                } else {
                    opponent_move(who, pos, &mut rng)
                };
                match mv.map(|m| record.play(m)) {
                    Some(Ok(())) => {}
                    other => panic!("{}: no legal move played: {other:?}", G::ID),
                }
            }
            let hp = match record.outcome() {
                Some(o) => o.result.half_points(engine_side),
                None => {
                    t.capped += 1;
                    1
                }
            };
            t.half_points += hp;
            t.games += 1;
            t.plies += record.moves().len() as u64;
            match hp {
                2 => t.wins += 1,
                1 => t.draws += 1,
                _ => {
                    t.losses.push(format!("{engine_side:?}#{pair}"));
                    if s.verbose {
                        let moves: Vec<String> =
                            record.moves().iter().map(ToString::to_string).collect();
                        eprintln!(
                            "{} lost as {engine_side:?} vs {who:?}: {:?}\n  {}\n  moves {}",
                            G::ID,
                            record.outcome(),
                            record.start(),
                            moves.join(" ")
                        );
                    }
                }
            }
        }
    }
    t
}

fn main() -> ExitCode {
    let s = match parse_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("strength: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "| game | opponent | games | score | W/D/L | mean plies | engine moves | wall s | openings rejected | losses |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
    );
    for &id in &s.games {
        for &who in &s.opponents {
            let started = Instant::now();
            let t = with_game!(id, G => play_pairs::<G>(who, &s));
            let losses = t.games - t.wins - t.draws;
            println!(
                "| {id} | {who:?} | {} | {:.1}% | {}/{}/{losses} | {:.1} | {} | {:.0} | {} | {}{} |",
                t.games,
                50.0 * f64::from(t.half_points) / f64::from(t.games.max(1)),
                t.wins,
                t.draws,
                t.plies as f64 / f64::from(t.games.max(1)),
                t.engine_moves,
                started.elapsed().as_secs_f64(),
                t.rejected,
                t.losses.join(" "),
                if t.capped > 0 {
                    format!(" ({} capped at {MAX_PLIES} plies)", t.capped)
                } else {
                    String::new()
                },
            );
        }
    }
    ExitCode::SUCCESS
}
