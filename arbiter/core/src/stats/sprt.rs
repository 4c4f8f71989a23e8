//! The sequential probability ratio test on logistic Elo ([`Sprt`]).

use super::counts::{Penta, Wdl, PAIR_SCORES};
use super::elo::{mean_var, score_from_elo};

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// The engine is not better by `elo1` (H0: Elo = `elo0` accepted).
    AcceptH0,
    /// The engine is better (H1: Elo = `elo1` accepted).
    AcceptH1,
}

/// A bad SPRT configuration.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// `elo0` must be below `elo1`.
    Hypotheses { elo0: f64, elo1: f64 },
    /// `alpha` and `beta` must lie in (0, 1) with `alpha + beta < 1`.
    ErrorRates { alpha: f64, beta: f64 },
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SprtError::Hypotheses { elo0, elo1 } => {
                write!(f, "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT: alpha ({alpha}) and beta ({beta}) must be between 0 and 1, \
                 with alpha + beta < 1"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// A generalized sequential probability ratio test on logistic Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        // Not `elo0 >= elo1`: NaN must be rejected too.
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        if !(rate_ok(alpha) && rate_ok(beta) && alpha + beta < 1.0) {
            return Err(SprtError::ErrorRates { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `ln(β/(1−α))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1−β)/α)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio from `n` samples of mean `mean` and variance
    /// `var` (per sample), with the normal approximation
    ///
    /// `LLR = (s1 − s0)·(2·mean − s0 − s1) / (2·var/n)`,
    /// `s0 = score_from_elo(elo0)`, `s1 = score_from_elo(elo1)`.
    ///
    /// This is fishtest's `LLR_logistic` (server/fishtest/stats/stat_util.py:
    /// `N * (s1 - s0) * (2 * mu - s1 - s0) / var / 2.0`) and fastchess's first
    /// `SPRT::getLLR` (matchmaking/sprt/sprt.cpp:
    /// `(s1 - s0) * (2 * a - s0 - s1) / var_s / 2.0` with `var_s = var / games`).
    /// Newer fastchess releases fit the distribution by maximum likelihood
    /// instead; the two agree closely for the small Elo differences SPRT is
    /// used for. The counts are regularised first (see `llr_counts`).
    fn llr(&self, n: f64, mean: f64, var: f64) -> f64 {
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (var / n) / 2.0
    }

    /// LLR from game results (trinomial: a game scores 0, ½ or 1), with the
    /// normal approximation `LLR = (s1 − s0)·(2·mean − s0 − s1)/(2·var/N)`
    /// of fishtest's `LLR_logistic` and fastchess (source comment of `llr`).
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr_counts(&[wdl.losses, wdl.draws, wdl.wins], &[0.0, 0.5, 1.0])
    }

    /// The LLR of counts over values. A record without variance (all wins,
    /// all draws, all losses) says nothing about the spread of results, and
    /// the formula would give 0 for ever; so it is counted with one virtual
    /// observation at each extreme (one loss and one win, which keeps the
    /// mean balanced) and the test can move, slowly, towards a bound.
    fn llr_counts(&self, counts: &[u32], values: &[f64]) -> f64 {
        let Some((n, mean, var)) = mean_var(counts, values) else {
            return 0.0;
        };
        if var > 0.0 {
            return self.llr(n, mean, var);
        }
        let mut padded = counts.to_vec();
        if let (Some(first), Some(_)) = (padded.first_mut(), values.first()) {
            *first += 1;
        }
        if let Some(last) = padded.last_mut() {
            *last += 1;
        }
        mean_var(&padded, values).map_or(0.0, |(n, mean, var)| self.llr(n, mean, var))
    }

    /// LLR from game pairs (pentanomial: a pair scores 0, ¼, ½, ¾ or 1 per
    /// game), the same formula with the per-pair variance and N = pairs.
    pub fn llr_penta(&self, penta: &Penta) -> f64 {
        self.llr_counts(&penta.counts, &PAIR_SCORES)
    }

    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper_bound() {
            SprtState::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}
