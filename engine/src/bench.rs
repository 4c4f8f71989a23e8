//! `engine bench`: single-threaded speed of the rules and the search, per game.

use std::fmt::Write;
use std::time::{Duration, Instant};

use mancala_rules::{perft, with_game, Game, GameId, RepetitionEffect};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::control::SearchControl;
use crate::eval::Evaluate;
use crate::search::{Limits, Searcher};
use crate::tt::Table;

/// One game's figures.
#[derive(Clone, Debug)]
pub struct GameBench {
    pub game: GameId,
    pub playouts_per_sec: f64,
    pub mean_plies: f64,
    pub perft_depth: u32,
    pub perft_nodes_per_sec: f64,
    pub search_nps: f64,
    pub search_depth: u32,
}

/// Plays one game from `start` with uniformly random legal moves, applying
/// every rule (the repetition rules by Zobrist key over the current window).
/// Returns the number of plies.
pub fn random_playout<G: Game>(
    start: &G,
    rng: &mut SmallRng,
    moves: &mut Vec<G::Move>,
    window: &mut Vec<u64>,
) -> u32 {
    let mut pos = start.clone();
    window.clear();
    window.push(pos.zobrist());
    let mut plies = 0;
    loop {
        if pos.status().is_some() {
            return plies;
        }
        moves.clear();
        pos.legal_moves(moves);
        let mv = moves[rng.random_range(0..moves.len())];
        let key = pos.history_key();
        pos.play(mv);
        plies += 1;
        if pos.history_key() != key {
            window.clear();
        }
        let hash = pos.zobrist();
        window.push(hash);
        if window.iter().filter(|&&h| h == hash).count() >= G::REPETITION_LIMIT {
            match pos.on_repetition() {
                RepetitionEffect::GameOver(_) => return plies,
                RepetitionEffect::Continue(next) => {
                    pos = next;
                    window.clear();
                    window.push(pos.zobrist());
                }
            }
        }
    }
}

fn bench_game<G: Evaluate>(seconds: f64) -> GameBench {
    let budget = Duration::from_secs_f64(seconds);
    let start = G::start();
    let mut rng = SmallRng::seed_from_u64(1);
    let (mut moves, mut window) = (Vec::new(), Vec::new());
    let t = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while t.elapsed() < budget {
        for _ in 0..64 {
            plies += u64::from(random_playout(&start, &mut rng, &mut moves, &mut window));
            games += 1;
        }
    }
    let playout_time = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let (mut depth, mut leaves) = (1, 0);
    loop {
        leaves += perft::perft(&start, depth);
        if t.elapsed() >= budget / 2 || depth >= 40 {
            break;
        }
        depth += 1;
    }
    let perft_time = t.elapsed().as_secs_f64();

    let mut tt = Table::new(64);
    let control = SearchControl::new();
    let now = Instant::now();
    control.set_budget(now, budget, budget);
    let mut searcher = Searcher::<G>::new(&mut tt, &control, Limits::default(), &[start.zobrist()]);
    let mut search_depth = 0;
    let result = searcher.run(&start, None, |it| search_depth = it.depth);
    let search_time = now.elapsed().as_secs_f64();
    let nodes = result.map_or(0, |r| r.nodes);

    GameBench {
        game: G::ID,
        playouts_per_sec: games as f64 / playout_time,
        mean_plies: plies as f64 / games.max(1) as f64,
        perft_depth: depth,
        perft_nodes_per_sec: leaves as f64 / perft_time,
        search_nps: nodes as f64 / search_time,
        search_depth,
    }
}

/// Benchmarks each game for about `seconds` per measurement.
pub fn run(games: &[GameId], seconds: f64) -> Vec<GameBench> {
    games
        .iter()
        .map(|&id| with_game!(id, G => bench_game::<G>(seconds)))
        .collect()
}

/// The figures as a Markdown table.
pub fn table(results: &[GameBench]) -> String {
    let mut out = String::from(
        "| game | random playouts/s | plies/playout | perft leaves/s (to depth) | search nodes/s | depth in budget |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        let _ = writeln!(
            out,
            "| {} | {:.0} | {:.1} | {:.0} ({}) | {:.0} | {} |",
            r.game,
            r.playouts_per_sec,
            r.mean_plies,
            r.perft_nodes_per_sec,
            r.perft_depth,
            r.search_nps,
            r.search_depth
        );
    }
    out
}
