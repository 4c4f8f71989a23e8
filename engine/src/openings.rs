//! Balanced opening suites: positions a few random plies from the start that
//! a fixed-depth search of the reference engine scores near even. Random
//! plies alone give lopsided starts in some games (Kujifunza: −2860 after one
//! move), which makes a game pair's two results say little.
//!
//! `engine openings --game G` prints a suite; the files in the repository's
//! `openings/` folder are its output (see `openings/generate`), reproducible
//! from the parameters in their header.

use std::collections::BTreeSet;

use mancala_rules::{with_game, Game, GameId, GameRecord};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::control::SearchControl;
use crate::eval::Evaluate;
use crate::search::{mate_distance, Limits, Searcher};
use crate::tt::Table;

/// How a suite is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteSpec {
    pub game: GameId,
    /// Random plies from the start (uniform over legal moves).
    pub plies: u32,
    /// Positions wanted.
    pub count: usize,
    /// Depth of the scoring search.
    pub depth: u32,
    /// Largest |score| kept, centi-seeds, for the side to move.
    pub window: i32,
    pub seed: u64,
}

/// One kept position with its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balanced {
    pub position: String,
    pub score: i32,
}

/// Tries this many random lines per wanted position before giving up.
const TRIES_PER_POSITION: usize = 1000;

/// The game after up to `plies` random legal moves from the start (fewer if
/// it ends), with its history.
pub fn random_line<G: Game>(plies: u32, rng: &mut SmallRng) -> GameRecord<G> {
    let mut record = GameRecord::new(G::start());
    for _ in 0..plies {
        let moves = record.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        if record.play(mv).is_err() {
            break;
        }
    }
    record
}

/// Makes the suite (fewer positions if the window is too narrow to find
/// `count` of them in `count · 1000` tries).
pub fn suite(spec: &SuiteSpec) -> Vec<Balanced> {
    with_game!(spec.game, G => make::<G>(spec))
}

fn make<G: Evaluate>(spec: &SuiteSpec) -> Vec<Balanced> {
    let mut rng = SmallRng::seed_from_u64(spec.seed);
    let mut seen = BTreeSet::new();
    let mut kept = Vec::new();
    let mut tt = Table::new(16);
    for _ in 0..spec.count * TRIES_PER_POSITION {
        if kept.len() == spec.count {
            break;
        }
        let record = random_line::<G>(spec.plies, &mut rng);
        let pos = record.position().clone();
        if record.is_over() || pos.decided().is_some() || !seen.insert(pos.to_string()) {
            continue;
        }
        let control = SearchControl::new();
        let history: Vec<u64> = record.repetition_history().map(Game::zobrist).collect();
        let limits = Limits {
            depth: Some(spec.depth),
            nodes: None,
        };
        let mut searcher = Searcher::<G>::new(&mut tt, &control, limits, &history);
        let Some(result) = searcher.run(&pos, None, |_| {}) else {
            continue;
        };
        tracing::debug!(score = result.score, position = %pos, "scored");
        if mate_distance(result.score).is_none() && result.score.abs() <= spec.window {
            kept.push(Balanced {
                position: pos.to_string(),
                score: result.score,
            });
        }
    }
    kept
}

/// The suite as an openings file: a header naming how it was made, then one
/// position string per line.
pub fn render(spec: &SuiteSpec, suite: &[Balanced]) -> String {
    let mut out = format!(
        "# Balanced openings for {game}: {n} positions {plies} random plies from the start,\n\
         # each scored within ±{window} centi-seeds by the reference engine at depth {depth}.\n\
         # Made by: engine openings --game {game} --plies {plies} --count {count} \
         --depth {depth} --window {window} --seed {seed}\n",
        game = spec.game,
        n = suite.len(),
        plies = spec.plies,
        window = spec.window,
        depth = spec.depth,
        count = spec.count,
        seed = spec.seed,
    );
    for b in suite {
        out.push_str(&b.position);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_are_balanced_open_distinct_and_reproducible() {
        let spec = SuiteSpec {
            game: GameId::Kujifunza,
            plies: 2,
            count: 6,
            depth: 3,
            window: 150,
            seed: 5,
        };
        let a = suite(&spec);
        assert!(!a.is_empty());
        let positions: BTreeSet<_> = a.iter().map(|b| b.position.clone()).collect();
        assert_eq!(positions.len(), a.len(), "no position twice");
        for b in &a {
            assert!(b.score.abs() <= 150, "{b:?}");
            let g = mancala_rules::game_from_position(&b.position).unwrap();
            assert!(g.outcome().is_none() && g.decided().is_none());
        }
        assert_eq!(suite(&spec), a);
        let text = render(&spec, &a);
        assert!(text.contains("engine openings --game kujifunza --plies 2 --count 6"));
        assert_eq!(
            text.lines().filter(|l| !l.starts_with('#')).count(),
            a.len()
        );
    }
}
