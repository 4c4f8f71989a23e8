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
//!
//! **Anchors** ([`fit_anchored`]): some engines' ratings are held at given
//! values and the others are fitted by maximum likelihood around them, so
//! that the numbers keep one meaning as the field changes.
//! - The field is cut into its connected parts (engines linked by games,
//!   directly or through others). A part with one or more anchors is placed
//!   by them: its anchors keep their values exactly (several anchors are all
//!   held, even if their games disagree with the values), its other engines
//!   get the likelihood's maximum given them. A part without an anchor
//!   cannot be placed relative to them: it is normalised to **its own
//!   average 0**, as a whole field without anchors is.
//! - Intervals: those of the free engines are from the Fisher information
//!   restricted to them (the anchors held: `I_FF⁻¹`), i.e. relative to the
//!   anchors; an anchor's margin is 0. The covariance is `None` when a part
//!   has no anchor (its ratings are then relative to nothing the others share).
//! - With one anchor in a connected field, the ratings are those of [`fit`]
//!   shifted so that the anchor has its value (the likelihood only sees
//!   differences). With no anchor at all it *is* [`fit`].

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
    /// (some engines never met, directly or through others) and, with
    /// anchors, when a part of it has no anchor.
    pub covariance: Option<Vec<Vec<f64>>>,
    /// Whether each engine's rating was held at an anchor ([`fit_anchored`]).
    pub anchored: Vec<bool>,
}

/// The weight of the virtual draw added to every pairing that met.
pub const PRIOR_DRAWS: f64 = 1.0;

const C: f64 = std::f64::consts::LN_10 / 400.0;

impl Ratings {
    /// Half the width of the 95% interval of engine `i` (∞ when unknown,
    /// 0 for an anchor: its rating is given, not measured).
    pub fn margin(&self, i: usize) -> f64 {
        if self.anchored.get(i) == Some(&true) {
            return 0.0;
        }
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
    let (games, points) = with_prior(results);
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
    Ratings {
        elo,
        covariance,
        anchored: vec![false; n],
    }
}

/// Games and points with the prior: one virtual draw per pairing that met.
fn with_prior(results: &Results) -> (Vec<Vec<f64>>, Vec<f64>) {
    let n = results.engines();
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
    (games, points)
}

/// Fits the ratings with `anchors` (`(engine, rating)`) held (see the
/// module documentation). An anchor naming no engine of the table, or with
/// a rating that is not a finite number, is ignored; of two anchors of one
/// engine the last counts. An anchor without a game keeps its value.
pub fn fit_anchored(results: &Results, anchors: &[(usize, f64)]) -> Ratings {
    let n = results.engines();
    let mut held: Vec<Option<f64>> = vec![None; n];
    for &(i, r) in anchors {
        if let (Some(h), true) = (held.get_mut(i), r.is_finite()) {
            *h = Some(r);
        }
    }
    if held.iter().all(Option::is_none) {
        return fit(results);
    }
    let (games, points) = with_prior(results);
    let part = parts(&games);
    let parts_n = part.iter().max().map_or(0, |&p| p + 1);
    // why start from the free fit, moved onto the anchors: the iteration
    // converges from anywhere, but the whole field drifting towards a lone
    // anchor is its slowest mode (10× the free fit's time on 100 bots);
    // with one anchor per part this start is already the answer.
    let start = fit(results).elo;
    let mut offsets = vec![(0.0f64, 0usize); parts_n];
    for (i, h) in held.iter().enumerate() {
        if let Some(r) = h {
            offsets[part[i]].0 += r - start[i];
            offsets[part[i]].1 += 1;
        }
    }
    // The offset of each part onto its anchors (`None`: no anchor).
    let placed: Vec<Option<f64>> = offsets
        .iter()
        .map(|&(sum, k)| (k > 0).then(|| sum / k as f64))
        .collect();
    let played: Vec<bool> = (0..n).map(|i| games[i].iter().any(|&g| g > 0.0)).collect();
    let free: Vec<bool> = (0..n).map(|i| held[i].is_none() && played[i]).collect();
    let mut gamma: Vec<f64> = (0..n)
        .map(|i| {
            let r = held[i].unwrap_or(start[i] + placed[part[i]].unwrap_or(0.0));
            10f64.powf(r / 400.0)
        })
        .collect();
    for _ in 0..100_000 {
        let mut next = gamma.clone();
        for i in (0..n).filter(|&i| free[i]) {
            let denom: f64 = (0..n)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            next[i] = points[i] / denom;
        }
        // A part without an anchor: its geometric mean at 1 (average 0).
        let mut log_sum = vec![(0.0f64, 0usize); parts_n];
        for i in (0..n).filter(|&i| free[i] && placed[part[i]].is_none()) {
            log_sum[part[i]].0 += next[i].ln();
            log_sum[part[i]].1 += 1;
        }
        let mut change = 0.0f64;
        for i in (0..n).filter(|&i| free[i]) {
            let (sum, k) = log_sum[part[i]];
            if k > 0 {
                next[i] = (next[i].ln() - sum / k as f64).exp();
            }
            change = change.max((next[i].ln() - gamma[i].ln()).abs());
        }
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    let elo: Vec<f64> = (0..n)
        .map(|i| held[i].unwrap_or_else(|| 400.0 * gamma[i].log10()))
        .collect();
    let covariance = if placed.iter().all(Option::is_some) {
        anchored_covariance(&elo, &games, &held)
    } else {
        None
    };
    Ratings {
        elo,
        covariance,
        anchored: held.iter().map(Option::is_some).collect(),
    }
}

/// The connected part of each engine (engines linked by games), numbered
/// from 0 in order of their first engine.
fn parts(games: &[Vec<f64>]) -> Vec<usize> {
    let n = games.len();
    let mut part = vec![usize::MAX; n];
    let mut next = 0;
    for start in 0..n {
        if part[start] != usize::MAX {
            continue;
        }
        part[start] = next;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            for j in 0..n {
                if games[i][j] > 0.0 && part[j] == usize::MAX {
                    part[j] = next;
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    part
}

/// The covariance with the anchors held: the inverse of the Fisher
/// information restricted to the free engines; 0 in the anchors' rows and
/// columns.
fn anchored_covariance(
    elo: &[f64],
    games: &[Vec<f64>],
    held: &[Option<f64>],
) -> Option<Vec<Vec<f64>>> {
    let n = elo.len();
    let free: Vec<usize> = (0..n).filter(|&i| held[i].is_none()).collect();
    let at: Vec<Option<usize>> = {
        let mut at = vec![None; n];
        for (k, &i) in free.iter().enumerate() {
            at[i] = Some(k);
        }
        at
    };
    let mut m = vec![vec![0.0; free.len()]; free.len()];
    for (a, &i) in free.iter().enumerate() {
        for j in (0..n).filter(|&j| j != i && games[i][j] > 0.0) {
            let p = 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0));
            let w = games[i][j] * C * C * p * (1.0 - p);
            m[a][a] += w;
            if let Some(b) = at[j] {
                m[a][b] -= w;
            }
        }
    }
    let inv = invert(m)?;
    let mut cov = vec![vec![0.0; n]; n];
    for (a, &i) in free.iter().enumerate() {
        for (b, &j) in free.iter().enumerate() {
            cov[i][j] = inv[a][b];
        }
    }
    Some(cov)
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
        let r = three();
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
    fn an_anchor_places_the_other_engine_by_its_score() {
        // B scores 3 wins and 1 loss against A, held at 1500. With the
        // virtual draw s = 3.5/5 = 0.7: B = 1500 + 400·log10(0.7/0.3) =
        // 1647.1907. B's variance is 1/w with w = 5·c²·0.7·0.3 = 3.479371e-5:
        // 28740.83, σ = 169.531, margin 1.959964·169.531 = 332.275 (twice the
        // unanchored margin: all the uncertainty is B's). LOS as unanchored.
        let mut r = Results::new(2);
        for hp in [2, 2, 0, 2] {
            r.add(1, 0, hp);
        }
        let fit = fit_anchored(&r, &[(0, 1500.0)]);
        assert_eq!(fit.elo[0], 1500.0);
        assert!(close(fit.elo[1], 1_647.190_71, 1e-3), "{:?}", fit.elo);
        assert_eq!(fit.anchored, [true, false]);
        assert_eq!(fit.margin(0), 0.0);
        assert!(close(fit.margin(1), 332.275, 1e-2), "{}", fit.margin(1));
        assert!(close(fit.los(1, 0).unwrap(), 0.807_36, 1e-4));
    }

    /// The three-engine table of `three_engines_satisfy_the_likelihood_equations`.
    fn three() -> Results {
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
        r
    }

    #[test]
    fn one_anchor_shifts_the_unanchored_fit() {
        let r = three();
        let free = fit(&r);
        // Hold B where the unanchored fit put it, plus 1000.
        let shift = 1000.0;
        let held = fit_anchored(&r, &[(1, free.elo[1] + shift)]);
        for i in 0..3 {
            assert!(
                close(held.elo[i], free.elo[i] + shift, 1e-6),
                "{i}: {:?} vs {:?}",
                held.elo,
                free.elo
            );
        }
        // Differences are measured alike whichever way the scale is fixed:
        // the variance of A − C, and A − B's now all A's (B is held).
        let (f, h) = (
            free.covariance.as_ref().unwrap(),
            held.covariance.as_ref().unwrap(),
        );
        assert!(close(
            h[0][0] + h[2][2] - 2.0 * h[0][2],
            f[0][0] + f[2][2] - 2.0 * f[0][2],
            1e-6
        ));
        assert!(close(h[0][0], f[0][0] + f[1][1] - 2.0 * f[0][1], 1e-6));
        assert!(close(
            held.los(0, 2).unwrap(),
            free.los(0, 2).unwrap(),
            1e-9
        ));
        assert!(h[1].iter().all(|&x| x == 0.0), "{h:?}");
        assert_eq!(held.margin(1), 0.0);
    }

    #[test]
    fn several_anchors_are_all_held_and_the_rest_fitted_between() {
        // A held at 0 and C at 400, though C lost to A; B is fitted: at the
        // maximum its expected points equal its points (virtual draws in).
        let r = three();
        let held = fit_anchored(&r, &[(0, 0.0), (2, 400.0)]);
        assert_eq!((held.elo[0], held.elo[2]), (0.0, 400.0));
        let expected: f64 = [0, 2]
            .iter()
            .map(|&j| {
                let n = f64::from(r.games[1][j]) + 1.0;
                n / (1.0 + 10f64.powf((held.elo[j] - held.elo[1]) / 400.0))
            })
            .sum();
        let points: f64 = [0, 2]
            .iter()
            .map(|&j| f64::from(r.half_points[1][j]) / 2.0 + 0.5)
            .sum();
        assert!(close(expected, points, 1e-6), "{expected} vs {points}");
        assert!(held.elo[1] > 0.0 && held.elo[1] < 400.0, "{:?}", held.elo);
        // B alone is uncertain: 1/(its information against the two anchors).
        let info: f64 = [0, 2]
            .iter()
            .map(|&j| {
                let n = f64::from(r.games[1][j]) + 1.0;
                let p = 1.0 / (1.0 + 10f64.powf((held.elo[j] - held.elo[1]) / 400.0));
                n * C * C * p * (1.0 - p)
            })
            .sum();
        let cov = held.covariance.as_ref().unwrap();
        assert!(close(cov[1][1], 1.0 / info, 1e-6), "{cov:?}");
        assert_eq!(held.los(0, 2), None, "two anchors: nothing measured");
    }

    #[test]
    fn an_anchor_without_games_keeps_its_value_and_places_no_one() {
        // A and B played; C, held at 1500, never did: A and B cannot be
        // placed relative to it, so they keep their own average 0.
        let mut r = Results::new(3);
        for hp in [2, 2, 0, 2] {
            r.add(0, 1, hp);
        }
        let held = fit_anchored(&r, &[(2, 1500.0)]);
        assert_eq!(held.elo[2], 1500.0);
        assert_eq!(held.margin(2), 0.0);
        assert!(close(held.elo[0], 73.595_36, 1e-3), "{:?}", held.elo);
        assert!(close(held.elo[1], -73.595_36, 1e-3), "{:?}", held.elo);
        assert_eq!(held.covariance, None);
        assert_eq!(held.margin(0), f64::INFINITY);
        // Once C plays, the whole field is placed by it.
        r.add(2, 0, 1);
        let placed = fit_anchored(&r, &[(2, 1500.0)]);
        assert_eq!(placed.elo[2], 1500.0);
        assert!(
            placed.elo[0] > 1000.0 && placed.elo[1] > 1000.0,
            "{:?}",
            placed.elo
        );
        assert!(placed.margin(0).is_finite() && placed.margin(1).is_finite());
    }

    #[test]
    fn anchors_on_separate_parts_place_each_and_a_part_without_one_averages_0() {
        // Parts {0, 1} (0 held at 1000), {2, 3} (3 held at -500), {4, 5}.
        let mut r = Results::new(6);
        for (a, b, hp) in [(0, 1, 2), (0, 1, 1), (2, 3, 0), (2, 3, 0), (4, 5, 2)] {
            r.add(a, b, hp);
        }
        let held = fit_anchored(&r, &[(0, 1000.0), (3, -500.0)]);
        // 0 scored 1.5 of 2 (+ the virtual draw: 2/3): 1 is 400·log10(2) below.
        assert!(
            close(held.elo[1], 1000.0 - 400.0 * 2f64.log10(), 1e-6),
            "{:?}",
            held.elo
        );
        // 2 lost both: 0.5/3, 400·log10(5) below -500.
        assert!(
            close(held.elo[2], -500.0 - 400.0 * 5f64.log10(), 1e-6),
            "{:?}",
            held.elo
        );
        assert!(
            close(held.elo[4] + held.elo[5], 0.0, 1e-9),
            "{:?}",
            held.elo
        );
        assert!(held.elo[4] > 0.0);
        assert_eq!(held.covariance, None, "a part has no anchor");
    }

    #[test]
    fn no_usable_anchor_is_the_plain_fit() {
        let r = three();
        assert_eq!(fit_anchored(&r, &[]), fit(&r));
        assert_eq!(fit_anchored(&r, &[(7, 100.0), (0, f64::NAN)]), fit(&r));
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
