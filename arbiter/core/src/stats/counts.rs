//! Counts of results: wins, draws and losses ([`Wdl`]) and pentanomial
//! game pairs ([`Penta`]), each with its score, Elo and LOS.

use mancala_rules::{GameResult, Side};

use super::elo::{mean_var, normal_cdf, EloEstimate};

/// Wins, draws and losses of one player (or of the first engine of a match).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Adds one game scored in half points (2 win, 1 draw, 0 loss).
    pub fn add(&mut self, half_points: u32) {
        match half_points {
            2.. => self.wins += 1,
            1 => self.draws += 1,
            0 => self.losses += 1,
        }
    }

    /// Adds `count` games each scored `half_points`.
    pub fn add_many(&mut self, half_points: u32, count: u32) {
        match half_points {
            2.. => self.wins += count,
            1 => self.draws += count,
            0 => self.losses += count,
        }
    }

    /// Adds one game as seen by the player on `side`.
    pub fn add_result(&mut self, result: GameResult, side: Side) {
        self.add(result.half_points(side));
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Points per game; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / f64::from(self.games()))
    }

    pub fn draw_ratio(&self) -> Option<f64> {
        (self.games() > 0).then(|| f64::from(self.draws) / f64::from(self.games()))
    }

    /// Elo and 95% interval from the trinomial variance of a game's score.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (n, mean, var) = mean_var(&[self.losses, self.draws, self.wins], &[0.0, 0.5, 1.0])?;
        Some(EloEstimate::from_score(mean, (var / n).sqrt()))
    }

    /// Likelihood of superiority, `Φ((W − L)/√(W + L))`; `None` without a
    /// decisive game.
    pub fn los(&self) -> Option<f64> {
        let decisive = f64::from(self.wins + self.losses);
        (decisive > 0.0)
            .then(|| normal_cdf((f64::from(self.wins) - f64::from(self.losses)) / decisive.sqrt()))
    }
}

/// Pentanomial counts: game pairs (same opening, colours swapped) by the
/// first engine's points in the pair: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// `counts[k]`: pairs where the engine scored `k` half points.
    pub counts: [u32; 5],
}

impl Penta {
    /// Adds a pair in which the engine scored `half_points` (0 to 4).
    /// Values above 4 are counted as 4.
    pub fn add_pair(&mut self, half_points: u32) {
        self.counts[half_points.min(4) as usize] += 1;
    }

    /// Adds a pair from the engine's half points in each of its two games.
    pub fn add_games(&mut self, first: u32, second: u32) {
        self.add_pair(first.min(2) + second.min(2));
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Points per game over all pairs.
    pub fn score(&self) -> Option<f64> {
        mean_var(&self.counts, &PAIR_SCORES).map(|(_, mean, _)| mean)
    }

    /// Elo and 95% interval from the pentanomial variance of a pair's mean score.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (n, mean, var) = mean_var(&self.counts, &PAIR_SCORES)?;
        Some(EloEstimate::from_score(mean, (var / n).sqrt()))
    }
}

/// A pair's score per game for 0, ½, 1, 1½, 2 points.
pub(super) const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
