//! Elo from a score and back, the normal distribution, and an Elo
//! estimate with its 95% interval.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a score in \[0, 1\]; ±∞ at the ends.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function Φ.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function, fractional error below 1.2e-7 (the
/// Chebyshev fit of Numerical Recipes, `erfcc`): ample for statistics that
/// are printed to one or two decimals.
pub(super) fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// An Elo estimate with its 95% interval. Values are infinite when the
/// score (or an end of its interval) reaches 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval width: the "±" cutechess prints.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }

    /// From a mean score and the standard error of that mean.
    pub(super) fn from_score(mean: f64, std_error: f64) -> EloEstimate {
        EloEstimate {
            elo: elo_from_score(mean),
            lower: elo_from_score(mean - Z95 * std_error),
            upper: elo_from_score(mean + Z95 * std_error),
        }
    }
}

/// Mean and variance of a discrete distribution given by counts over values.
pub(super) fn mean_var(counts: &[u32], values: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
    if n == 0.0 {
        return None;
    }
    let mean = counts
        .iter()
        .zip(values)
        .map(|(&c, &x)| f64::from(c) * x)
        .sum::<f64>()
        / n;
    let var = counts
        .iter()
        .zip(values)
        .map(|(&c, &x)| f64::from(c) * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}
