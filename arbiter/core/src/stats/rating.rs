//! Elo ratings of a whole field by maximum likelihood, with 95% intervals and
//! the likelihood of superiority between any two engines.
//!
//! The model is Elo's logistic one (Bradley–Terry, as Ordo and BayesElo use
//! it, without a first-move advantage): engine `i` scores
//! `p_ij = 1/(1 + 10^((r_j − r_i)/400))` per game against `j`, and a draw
//! counts as half a win and half a loss. The ratings maximise the likelihood
//! of the points scored, anchored so that **the field average is 0**.
//!
//! - Prior: every pairing that met also gets **one virtual draw** (BayesElo's
//!   idea, with a weight of one game), so that an engine that won or lost
//!   every game still gets a finite rating; with many games its effect fades.
//! - Fit: the minorisation–maximisation iteration of Hunter (2004),
//!   `γ_i ← W_i / Σ_j n_ij/(γ_i + γ_j)`, `r_i = 400·log10 γ_i`.
//! - Intervals: the normal approximation from the observed Fisher information
//!   `I` (a weighted graph Laplacian with weights `n_ij·c²·p_ij(1 − p_ij)`,
//!   `c = ln 10/400`); the covariance of ratings that sum to 0 is its
//!   pseudo-inverse `(I + J/n)⁻¹ − J/n`. The per-game variance `p(1 − p)`
//!   ignores that draws lower the variance, so the intervals are slightly
//!   conservative when there are many draws.
//! - LOS of `i` over `j`: `Φ((r_i − r_j)/σ(r_i − r_j))` from that covariance.
//!
//! With two engines this reduces to `r = ±elo(s)/2` where `s` is the score
//! including the virtual draw.

use crate::stats::{normal_cdf, Z95};

/// Points scored per pairing: the input of [`fit`].
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// `games[i][j]`: games between `i` and `j` (symmetric).
    pub games: Vec<Vec<u32>>,
    /// `half_points[i][j]`: half points `i` scored against `j`.
    pub half_points: Vec<Vec<u32>>,
}

impl Results {
    pub fn new(engines: usize) -> Results {
        Results {
            games: vec![vec![0; engines]; engines],
            half_points: vec![vec![0; engines]; engines],
        }
    }

    /// Adds one game in which `a` scored `half_points_a` (0, 1 or 2) against `b`.
    pub fn add(&mut self, a: usize, b: usize, half_points_a: u32) {
        let hp = half_points_a.min(2);
        self.games[a][b] += 1;
        self.games[b][a] += 1;
        self.half_points[a][b] += hp;
        self.half_points[b][a] += 2 - hp;
    }

    pub fn engines(&self) -> usize {
        self.games.len()
    }
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo relative to the field average (they sum to 0).
    pub elo: Vec<f64>,
    /// Covariance of the ratings; `None` when the field is not connected
    /// (some engines never met, directly or through others).
    pub covariance: Option<Vec<Vec<f64>>>,
}

/// The weight of the virtual draw added to every pairing that met.
pub const PRIOR_DRAWS: f64 = 1.0;

const C: f64 = std::f64::consts::LN_10 / 400.0;

impl Ratings {
    /// Half the width of the 95% interval of engine `i` (∞ when unknown).
    pub fn margin(&self, i: usize) -> f64 {
        self.covariance
            .as_ref()
            .map_or(f64::INFINITY, |c| Z95 * c[i][i].max(0.0).sqrt())
    }

    /// Likelihood that `i` is stronger than `j`; `None` when unknown.
    pub fn los(&self, i: usize, j: usize) -> Option<f64> {
        let c = self.covariance.as_ref()?;
        let var = c.get(i)?.get(i)? + c.get(j)?.get(j)? - 2.0 * c[i][j];
        (var > 0.0).then(|| normal_cdf((self.elo[i] - self.elo[j]) / var.sqrt()))
    }
}

/// Fits the ratings (see the module documentation). Engines without a game
/// get 0 and an infinite margin is reported for a disconnected field.
pub fn fit(results: &Results) -> Ratings {
    let n = results.engines();
    // Games and points with the prior: one virtual draw per pairing that met.
    let mut games = vec![vec![0.0; n]; n];
    let mut points = vec![0.0; n];
    for (i, (row, hp_row)) in results.games.iter().zip(&results.half_points).enumerate() {
        for (j, (&g, &hp)) in row.iter().zip(hp_row).enumerate() {
            if i != j && g > 0 {
                games[i][j] = f64::from(g) + PRIOR_DRAWS;
                points[i] += f64::from(hp) / 2.0 + PRIOR_DRAWS / 2.0;
            }
        }
    }
    let played: Vec<bool> = (0..n).map(|i| games[i].iter().any(|&g| g > 0.0)).collect();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut next = gamma.clone();
        for i in (0..n).filter(|&i| played[i]) {
            let denom: f64 = (0..n)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            next[i] = points[i] / denom;
        }
        // Keep the geometric mean of those who played at 1 (the scale is free).
        let k = played.iter().filter(|&&p| p).count().max(1) as f64;
        let mean_log = (0..n)
            .filter(|&i| played[i])
            .map(|i| next[i].ln())
            .sum::<f64>()
            / k;
        let mut change = 0.0f64;
        for i in (0..n).filter(|&i| played[i]) {
            next[i] = (next[i].ln() - mean_log).exp();
            change = change.max((next[i].ln() - gamma[i].ln()).abs());
        }
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    let mut elo: Vec<f64> = gamma.iter().map(|g| 400.0 * g.log10()).collect();
    let mean = elo.iter().sum::<f64>() / n.max(1) as f64;
    for e in &mut elo {
        *e -= mean;
    }
    let covariance = covariance(&elo, &games);
    Ratings { elo, covariance }
}

/// The pseudo-inverse of the Fisher information (see the module docs).
fn covariance(elo: &[f64], games: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = elo.len();
    if n < 2 {
        return None;
    }
    let inv_n = 1.0 / n as f64;
    let mut m = vec![vec![inv_n; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let p = 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0));
                let w = games[i][j] * C * C * p * (1.0 - p);
                m[i][j] -= w;
                m[i][i] += w;
            }
        }
    }
    let mut inv = invert(m)?;
    for row in &mut inv {
        for x in row.iter_mut() {
            *x -= inv_n;
        }
    }
    Some(inv)
}

/// Gauss–Jordan inversion with partial pivoting; `None` when singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() <= 1e-12 * scale {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..n {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for r in 0..n {
            if r != col {
                let f = a[r][col];
                if f != 0.0 {
                    for j in 0..n {
                        a[r][j] -= f * a[col][j];
                        inv[r][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn two_engines_by_hand() {
        // A scores 3 wins and 1 loss against B. With the virtual draw:
        // 3.5 points of 5, s = 0.7, D = 400·log10(0.7/0.3) = 147.1907,
        // so A = +73.5954 and B = −73.5954.
        // Information weight w = 5·c²·0.7·0.3 with c = ln10/400 = 0.00575646:
        // w = 3.479371e-5; the Laplacian [[w,−w],[−w,w]] has pseudo-inverse
        // [[1,−1],[−1,1]]/(4w): var(A) = 7185.21, σ = 84.766, margin
        // 1.959964·84.766 = 166.138.
        // LOS(A over B) = Φ(147.1907/√(4·7185.21)) = Φ(0.86822) = 0.80736.
        let mut r = Results::new(2);
        for hp in [2, 2, 0, 2] {
            r.add(0, 1, hp);
        }
        let fit = fit(&r);
        assert!(close(fit.elo[0], 73.595_36, 1e-3), "{:?}", fit.elo);
        assert!(close(fit.elo[1], -73.595_36, 1e-3));
        assert!(close(fit.margin(0), 166.138, 1e-2), "{}", fit.margin(0));
        assert!(close(fit.margin(1), 166.138, 1e-2));
        assert!(close(fit.los(0, 1).unwrap(), 0.807_36, 1e-4));
        assert!(close(fit.los(1, 0).unwrap(), 1.0 - 0.807_36, 1e-4));
    }

    #[test]
    fn a_perfect_score_stays_finite() {
        // 4 wins of 4, plus the virtual draw: 4.5/5 = 0.9, D = 400·log10(9) = 381.697.
        let mut r = Results::new(2);
        for _ in 0..4 {
            r.add(1, 0, 2);
        }
        let fit = fit(&r);
        assert!(
            close(fit.elo[1] - fit.elo[0], 381.697, 1e-2),
            "{:?}",
            fit.elo
        );
    }

    #[test]
    fn three_engines_satisfy_the_likelihood_equations() {
        // A–B 3/4 for A, B–C 2.5/4 for B, A–C 2/2 for A.
        // At the maximum, each engine's expected points equal its points
        // (with the virtual draws): Σ_j n_ij·p_ij = W_i.
        let mut r = Results::new(3);
        for (a, b, hp) in [
            (0, 1, 2),
            (0, 1, 2),
            (0, 1, 1),
            (0, 1, 1),
            (1, 2, 2),
            (1, 2, 1),
            (1, 2, 0),
            (1, 2, 2),
            (0, 2, 2),
            (0, 2, 2),
        ] {
            r.add(a, b, hp);
        }
        let fit = fit(&r);
        assert!(close(fit.elo.iter().sum::<f64>(), 0.0, 1e-9));
        for i in 0..3 {
            let mut expected = 0.0;
            let mut points = 0.0;
            for j in 0..3 {
                if i != j && r.games[i][j] > 0 {
                    let n = f64::from(r.games[i][j]) + 1.0;
                    expected += n / (1.0 + 10f64.powf((fit.elo[j] - fit.elo[i]) / 400.0));
                    points += f64::from(r.half_points[i][j]) / 2.0 + 0.5;
                }
            }
            assert!(
                close(expected, points, 1e-6),
                "engine {i}: {expected} vs {points}"
            );
        }
        assert!(fit.elo[0] > fit.elo[1] && fit.elo[1] > fit.elo[2]);
        // Cross-checked with an independent Newton fit in Python:
        // A = +135.744, B = −26.243, C = −109.501 (field average 0).
        assert!(close(fit.elo[0], 135.744, 1e-3), "{:?}", fit.elo);
        assert!(close(fit.elo[1], -26.243, 1e-3), "{:?}", fit.elo);
        assert!(close(fit.elo[2], -109.501, 1e-3), "{:?}", fit.elo);
        let cov = fit.covariance.as_ref().unwrap();
        for row in cov {
            // Ratings sum to zero, so each row of the covariance does too.
            assert!(close(row.iter().sum::<f64>(), 0.0, 1e-6), "{row:?}");
        }
    }

    #[test]
    fn a_disconnected_field_has_no_intervals() {
        let mut r = Results::new(4);
        r.add(0, 1, 2);
        r.add(2, 3, 1);
        let fit = fit(&r);
        assert_eq!(fit.covariance, None);
        assert_eq!(fit.margin(0), f64::INFINITY);
        assert_eq!(fit.los(0, 1), None);
    }
}
