//! Match statistics: score, Elo with a 95% interval, likelihood of
//! superiority, pentanomial statistics of game pairs, SPRT, and tournament
//! standings with a crosstable.
//!
//! Conventions follow cutechess-cli and fastchess:
//! - Elo is logistic: `elo(s) = -400·log10(1/s − 1)` for a score `s` in (0, 1).
//! - The interval is a normal approximation on the score: `s ± 1.96·σ/√N`,
//!   with `σ²` the variance of one game's score (trinomial) or of one pair's
//!   mean score (pentanomial), each end mapped through `elo`.
//! - LOS `= Φ((W − L)/√(W + L))`.
//! - SPRT is the GSPRT with the normal approximation used by fishtest's
//!   `LLR_logistic` and early fastchess (see [`Sprt::llr_wdl`]).
//!
//! All functions are pure; nothing here knows about engines or processes.
//! [`rating`] fits Elo over a whole field; [`report`] formats standings.

pub mod formats;
pub mod json;
pub mod rating;
pub mod report;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mancala_rules::{GameResult, Side};

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
fn erfc(x: f64) -> f64 {
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
    fn from_score(mean: f64, std_error: f64) -> EloEstimate {
        EloEstimate {
            elo: elo_from_score(mean),
            lower: elo_from_score(mean - Z95 * std_error),
            upper: elo_from_score(mean + Z95 * std_error),
        }
    }
}

/// Mean and variance of a discrete distribution given by counts over values.
fn mean_var(counts: &[u32], values: &[f64]) -> Option<(f64, f64, f64)> {
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
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

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

/// A number for reports: fixed decimals, `inf`/`-inf` when infinite.
fn number(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "inf".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        let text = format!("{x:.decimals$}");
        // why: a score of exactly 50 % gives an Elo of −0 (and a tiny
        // negative value rounds to "-0.0"); a sign on zero says nothing.
        match text.strip_prefix('-') {
            Some(digits) if digits.bytes().all(|b| b == b'0' || b == b'.') => digits.to_owned(),
            _ => text,
        }
    }
}

/// `147.2 +/- 66.0`, or words where the logistic model has no finite answer
/// (a score of 0 % or 100 %, too few games for an interval, or results
/// without any spread, such as one game pair or only draws, whose "± 0"
/// would claim a certainty they do not carry).
pub fn elo_text(e: EloEstimate) -> String {
    if e.elo.is_finite() && e.margin() == 0.0 {
        format!("{} (no interval: every result alike)", number(e.elo, 1))
    } else if e.elo.is_finite() && e.margin().is_finite() {
        format!("{} +/- {}", number(e.elo, 1), number(e.margin(), 1))
    } else if e.elo.is_finite() {
        format!("{} (interval unbounded: too few games)", number(e.elo, 1))
    } else if e.elo > 0.0 {
        "+inf (every point won; no interval)".to_owned()
    } else {
        "-inf (every point lost; no interval)".to_owned()
    }
}

/// A cutechess-style match report for `first` against `second`, from the
/// first engine's point of view:
///
/// ```text
/// Score of Alpha vs Beta: 60 - 20 - 20  [0.700] 100
/// Elo difference: 147.2 +/- 66.0, LOS: 100.0 %, DrawRatio: 20.0 %
/// Ptnml(0-2): [2, 5, 10, 8, 5], pair Elo: 52.5 +/- 73.0
/// SPRT: llr 1.73 (58.9%), lbound -2.94, ubound 2.94
/// ```
///
/// Lines for the pentanomial counts and the SPRT only when given; the SPRT
/// uses the pentanomial counts when they are given and non-empty.
pub fn match_report(
    first: &str,
    second: &str,
    wdl: &Wdl,
    penta: Option<&Penta>,
    sprt: Option<&Sprt>,
) -> String {
    let mut out = format!(
        "Score of {first} vs {second}: {} - {} - {}  [{}] {}\n",
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.score()
            .map_or_else(|| "-".to_owned(), |s| format!("{s:.3}")),
        wdl.games()
    );
    if let Some(e) = wdl.elo() {
        let _ = writeln!(
            out,
            "Elo difference: {}, LOS: {} %, DrawRatio: {} %",
            elo_text(e),
            wdl.los()
                .map_or_else(|| "-".to_owned(), |l| number(l * 100.0, 1)),
            wdl.draw_ratio()
                .map_or_else(|| "-".to_owned(), |d| number(d * 100.0, 1)),
        );
    }
    let penta = penta.filter(|p| p.pairs() > 0);
    if let Some(p) = penta {
        let counts: Vec<String> = p.counts.iter().map(u32::to_string).collect();
        let _ = write!(out, "Ptnml(0-2): [{}]", counts.join(", "));
        if let Some(e) = p.elo() {
            let _ = write!(out, ", pair Elo: {}", elo_text(e));
        }
        out.push('\n');
    }
    if let Some(sprt) = sprt {
        let llr = penta.map_or_else(|| sprt.llr_wdl(wdl), |p| sprt.llr_penta(p));
        let verdict = match sprt.state(llr) {
            SprtState::Continue => "",
            SprtState::AcceptH0 => " - H0 was accepted",
            SprtState::AcceptH1 => " - H1 was accepted",
        };
        let _ = writeln!(
            out,
            "SPRT: llr {} ({}%), lbound {}, ubound {}{verdict}",
            number(llr, 2),
            number(llr / sprt.upper_bound() * 100.0, 1),
            number(sprt.lower_bound(), 2),
            number(sprt.upper_bound(), 2),
        );
    }
    out
}

/// One finished game for standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredGame {
    pub south: String,
    pub north: String,
    pub result: GameResult,
    /// The termination kind (e.g. `time_forfeit`) when the loser forfeited;
    /// counted against the loser.
    pub forfeit: Option<String>,
}

/// Points scored against one opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairScore {
    pub half_points: u32,
    pub games: u32,
}

/// One engine's line of the standings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    pub name: String,
    pub wdl: Wdl,
    /// Sonneborn-Berger: for each game, the opponent's final points times the
    /// points scored in that game (win: all of them, draw: half).
    pub sonneborn_berger: f64,
    /// Games lost by forfeit, by termination kind.
    pub forfeits: BTreeMap<String, u32>,
}

impl Standing {
    pub fn points(&self) -> f64 {
        self.wdl.points()
    }
}

/// Standings ranked by score (points per game), then points, then
/// Sonneborn-Berger, then name; with the
/// crosstable in the same order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    pub engines: Vec<Standing>,
    /// `cross[i][j]`: what `engines[i]` scored against `engines[j]`.
    pub cross: Vec<Vec<PairScore>>,
}

impl Standings {
    /// Builds the standings. `names` lists the participants (so that engines
    /// without a game appear); names met only in `games` are added.
    pub fn build(names: &[String], games: &[ScoredGame]) -> Standings {
        let counted: Vec<(ScoredGame, u32)> = games.iter().map(|g| (g.clone(), 1)).collect();
        Standings::build_counted(names, &counted)
    }

    /// [`Standings::build`] from distinct games with how often each happened.
    pub fn build_counted(names: &[String], games: &[(ScoredGame, u32)]) -> Standings {
        let mut all: Vec<String> = names.to_vec();
        for (g, _) in games {
            for n in [&g.south, &g.north] {
                if !all.contains(n) {
                    all.push(n.clone());
                }
            }
        }
        let index = |n: &str| all.iter().position(|a| a == n).unwrap_or(0);
        let size = all.len();
        let mut engines: Vec<Standing> = all
            .iter()
            .map(|n| Standing {
                name: n.clone(),
                ..Standing::default()
            })
            .collect();
        let mut cross = vec![vec![PairScore::default(); size]; size];
        for (g, count) in games {
            let (s, n) = (index(&g.south), index(&g.north));
            for (me, opp, side) in [(s, n, Side::South), (n, s, Side::North)] {
                let hp = g.result.half_points(side);
                engines[me].wdl.add_many(hp, *count);
                cross[me][opp].half_points += hp * count;
                cross[me][opp].games += count;
                if hp == 0 {
                    if let Some(kind) = &g.forfeit {
                        *engines[me].forfeits.entry(kind.clone()).or_default() += count;
                    }
                }
            }
        }
        let totals: Vec<f64> = engines.iter().map(Standing::points).collect();
        // Sonneborn-Berger from the crosstable: the points scored against
        // each opponent times the opponent's total.
        for (me, row) in cross.iter().enumerate() {
            engines[me].sonneborn_berger = row
                .iter()
                .zip(&totals)
                .map(|(c, total)| f64::from(c.half_points) / 2.0 * total)
                .sum();
        }
        let mut order: Vec<usize> = (0..size).collect();
        // why score, not points: in a gauntlet the first engine plays every
        // other one and so has more games; points would rank it by its game
        // count. Where every engine has played as many games, the orders agree.
        let score = |e: &Standing| e.wdl.score().unwrap_or(-1.0);
        order.sort_by(|&a, &b| {
            let (ea, eb) = (&engines[a], &engines[b]);
            score(eb)
                .total_cmp(&score(ea))
                .then(eb.points().total_cmp(&ea.points()))
                .then(eb.sonneborn_berger.total_cmp(&ea.sonneborn_berger))
                .then(ea.name.cmp(&eb.name))
        });
        Standings {
            cross: order
                .iter()
                .map(|&i| order.iter().map(|&j| cross[i][j]).collect())
                .collect(),
            engines: order.iter().map(|&i| engines[i].clone()).collect(),
        }
    }

    /// The standings and crosstable as a fixed-width text table:
    ///
    /// ```text
    /// Rank Name  Games Points  Score   W  D  L    SB Forfeits       |     1     2
    ///    1 Alpha     3    2.5  83.3%   2  1  0  2.25 -              |     x   2/2
    /// ```
    ///
    /// Crosstable cells are `points/games` against the engine of that rank
    /// (`x` on the diagonal, `-` when they did not meet).
    pub fn render(&self) -> String {
        let name_w = self
            .engines
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        let forfeits: Vec<String> = self
            .engines
            .iter()
            .map(|e| {
                if e.forfeits.is_empty() {
                    "-".to_owned()
                } else {
                    e.forfeits
                        .iter()
                        .map(|(k, n)| format!("{k}:{n}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            })
            .collect();
        let forf_w = forfeits.iter().map(String::len).max().unwrap_or(0).max(8);
        let cells: Vec<Vec<String>> = self
            .cross
            .iter()
            .enumerate()
            .map(|(i, row)| {
                row.iter()
                    .enumerate()
                    .map(|(j, c)| match (i == j, c.games) {
                        (true, _) => "x".to_owned(),
                        (false, 0) => "-".to_owned(),
                        _ => format!("{}/{}", half(c.half_points), c.games),
                    })
                    .collect()
            })
            .collect();
        let cell_w = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(self.engines.len().to_string().len())
            .max(3);
        let mut out = String::new();
        let _ = write!(
            out,
            "{:>4} {:<name_w$} {:>5} {:>6} {:>6} {:>4} {:>4} {:>4} {:>7} {:<forf_w$} |",
            "Rank", "Name", "Games", "Points", "Score", "W", "D", "L", "SB", "Forfeits"
        );
        for j in 1..=self.engines.len() {
            let _ = write!(out, " {j:>cell_w$}");
        }
        out.push('\n');
        for (i, e) in self.engines.iter().enumerate() {
            let score = e
                .wdl
                .score()
                .map_or_else(|| "-".to_owned(), |s| format!("{:.1}%", s * 100.0));
            let _ = write!(
                out,
                "{:>4} {:<name_w$} {:>5} {:>6} {:>6} {:>4} {:>4} {:>4} {:>7.2} {:<forf_w$} |",
                i + 1,
                e.name,
                e.wdl.games(),
                format!("{:.1}", e.points()),
                score,
                e.wdl.wins,
                e.wdl.draws,
                e.wdl.losses,
                e.sonneborn_berger,
                forfeits[i],
            );
            for c in &cells[i] {
                let _ = write!(out, " {c:>cell_w$}");
            }
            out.push('\n');
        }
        out
    }
}

/// Half points as points: `3` → `1.5`, `4` → `2`.
fn half(hp: u32) -> String {
    // f64 `Display` writes 2.0 as `2` and 1.5 as `1.5`.
    (f64::from(hp) / 2.0).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(Z95), 0.975, 1e-7));
        assert!(close(normal_cdf(-1.0), 0.158_655_253_9, 1e-7));
    }

    #[test]
    fn trinomial_statistics() {
        // W=60 D=20 L=20, N=100: s = (60 + 10)/100 = 0.7;
        // elo = -400·log10(1/0.7 − 1) = -400·log10(0.428571) = 147.1907.
        // Per-game variance = (60·0.3² + 20·0.2² + 20·0.7²)/100 = 0.16,
        // σ/√N = 0.04, s ± 1.96·0.04 = [0.62160, 0.77840] → [86.225, 218.252].
        // LOS = Φ(40/√80) = Φ(4.4721) = 0.9999961.
        // (values checked with python3 statistics.NormalDist)
        let wdl = Wdl::new(60, 20, 20);
        assert_eq!(wdl.score(), Some(0.7));
        assert_eq!(wdl.draw_ratio(), Some(0.2));
        let e = wdl.elo().unwrap();
        assert!(close(e.elo, 147.190_714, 1e-5));
        assert!(close(e.lower, 86.225_015, 1e-5));
        assert!(close(e.upper, 218.251_778, 1e-5));
        assert!(close(e.margin(), (218.251_778 - 86.225_015) / 2.0, 1e-5));
        assert!(close(wdl.los().unwrap(), 0.999_996_128, 1e-7));
        // W=10 L=5: Φ(5/√15) = 0.901647.
        assert!(close(Wdl::new(10, 3, 5).los().unwrap(), 0.901_647_2, 1e-6));
        assert_eq!(Wdl::new(0, 4, 0).los(), None);
        assert_eq!(Wdl::default().elo(), None);
    }

    #[test]
    fn wdl_from_results() {
        let mut w = Wdl::default();
        w.add_result(GameResult::SouthWins, Side::South);
        w.add_result(GameResult::SouthWins, Side::North);
        w.add_result(GameResult::Draw, Side::North);
        assert_eq!(w, Wdl::new(1, 1, 1));
        assert_eq!(w.points(), 1.5);
    }

    #[test]
    fn pentanomial_statistics() {
        // Pairs by points 0, ½, 1, 1½, 2: [2, 5, 10, 8, 5], 30 pairs.
        // Mean per game = (5·0.25 + 10·0.5 + 8·0.75 + 5·1)/30 = 17.25/30 = 0.575.
        // Variance per pair = Σ c·(x − 0.575)²/30 = 0.0797917;
        // σ/√30 = 0.0515726; interval [0.474920, 0.675080] → [-18.1389, 127.8243];
        // elo(0.575) = 52.5116.
        let mut p = Penta::default();
        for (k, &c) in [2u32, 5, 10, 8, 5].iter().enumerate() {
            for _ in 0..c {
                p.add_pair(k as u32);
            }
        }
        assert_eq!(p.pairs(), 30);
        assert!(close(p.score().unwrap(), 0.575, 1e-12));
        let e = p.elo().unwrap();
        assert!(close(e.elo, 52.511_566, 1e-5));
        assert!(close(e.lower, -18.138_864, 1e-5));
        assert!(close(e.upper, 127.824_314, 1e-5));
        let mut q = Penta::default();
        q.add_games(2, 1);
        q.add_games(0, 1);
        assert_eq!(q.counts, [0, 1, 0, 1, 0]);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        // alpha = beta = 0.05: bounds ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert!(close(sprt.lower_bound(), -2.944_438_979, 1e-9));
        assert!(close(sprt.upper_bound(), 2.944_438_979, 1e-9));
        // W=60 D=20 L=20: s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.5143871,
        // mean a = 0.7, b = W + D/4 = 0.65, var = b − a² = 0.16, var/N = 0.0016;
        // LLR = 0.0143871·(1.4 − 1.0143871)/0.0016/2 = 1.733713.
        let llr = sprt.llr_wdl(&Wdl::new(60, 20, 20));
        assert!(close(llr, 1.733_713_312, 1e-6));
        assert_eq!(sprt.state(llr), SprtState::Continue);
        // Penta [2,5,10,8,5] with the same hypotheses: var/N = 0.0797917/30,
        // LLR = 0.0143871·(1.15 − 1.0143871)/(0.0797917/30)/2 = 0.366784.
        let p = Penta {
            counts: [2, 5, 10, 8, 5],
        };
        assert!(close(sprt.llr_penta(&p), 0.366_783_896, 1e-6));
        // Asymmetric: elo0=-5, elo1=5, alpha=0.05, beta=0.1, W=10 D=5 L=5 → 0.209311;
        // bounds ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
        let s2 = Sprt::new(-5.0, 5.0, 0.05, 0.1).unwrap();
        assert!(close(s2.llr_wdl(&Wdl::new(10, 5, 5)), 0.209_311_468, 1e-6));
        assert!(close(s2.lower_bound(), -2.251_291_799, 1e-9));
        assert!(close(s2.upper_bound(), 2.890_371_758, 1e-9));
        assert_eq!(s2.state(3.0), SprtState::AcceptH1);
        assert_eq!(s2.state(-2.3), SprtState::AcceptH0);
        // No information yet.
        assert_eq!(sprt.llr_wdl(&Wdl::default()), 0.0);
        // All draws: padded with one loss and one win (L=1 D=7 W=1): mean 0.5,
        // var (0.25+0.25)/9 = 0.0555…, LLR = 0.0143871·(1 − 1.0143871)/(0.0555…/9)/2
        // = −0.0167663: equal strength leans towards H0, slowly.
        assert!(close(sprt.llr_wdl(&Wdl::new(0, 7, 0)), -0.016_766_3, 1e-6));
        // All wins (W=3, padded L=1 W=4): mean 0.8, var 0.16, LLR
        // 0.0143871·(1.6 − 1.0143871)/(0.16/5)/2 = 0.131637: it moves towards H1.
        assert!(close(sprt.llr_wdl(&Wdl::new(3, 0, 0)), 0.131_637, 1e-5));
        // A losing engine drifts towards H0: W=40 D=40 L=120 has LLR
        // 0.0143871·(0.6 − 1.0143871)/(0.16/200)/2 = -3.726165 < -2.944.
        let losing = sprt.llr_wdl(&Wdl::new(40, 40, 120));
        assert!(close(losing, -3.726_165, 1e-5), "{losing}");
        assert_eq!(sprt.state(losing), SprtState::AcceptH0);
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(matches!(
            Sprt::new(5.0, 0.0, 0.05, 0.05),
            Err(SprtError::Hypotheses { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.0, 0.05),
            Err(SprtError::ErrorRates { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.6, 0.5),
            Err(SprtError::ErrorRates { .. })
        ));
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
    }

    #[test]
    fn match_reports() {
        // Numbers from trinomial_statistics, pentanomial_statistics and
        // sprt_bounds_and_llr: margin (218.252 − 86.225)/2 = 66.01;
        // penta margin (127.824 + 18.139)/2 = 72.98; LLR 0.3668 = 12.5% of 2.944.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let penta = Penta {
            counts: [2, 5, 10, 8, 5],
        };
        let report = match_report(
            "Alpha",
            "Beta",
            &Wdl::new(60, 20, 20),
            Some(&penta),
            Some(&sprt),
        );
        assert_eq!(
            report,
            "Score of Alpha vs Beta: 60 - 20 - 20  [0.700] 100\n\
             Elo difference: 147.2 +/- 66.0, LOS: 100.0 %, DrawRatio: 20.0 %\n\
             Ptnml(0-2): [2, 5, 10, 8, 5], pair Elo: 52.5 +/- 73.0\n\
             SPRT: llr 0.37 (12.5%), lbound -2.94, ubound 2.94\n"
        );
        // Three wins: LOS = Φ(3/√3) = Φ(1.732) = 0.958; zero variance, so LLR 0.
        let all_wins = match_report("A", "B", &Wdl::new(3, 0, 0), None, Some(&sprt));
        assert_eq!(
            all_wins,
            "Score of A vs B: 3 - 0 - 0  [1.000] 3\n\
             Elo difference: +inf (every point won; no interval), LOS: 95.8 %, DrawRatio: 0.0 %\n\
             SPRT: llr 0.13 (4.5%), lbound -2.94, ubound 2.94\n"
        );
        // One win each and one pair: Elo exactly 0 (not "-0.0"); the
        // games' interval is unbounded, the single pair has no spread at all.
        let even = Penta {
            counts: [0, 0, 1, 0, 0],
        };
        assert_eq!(
            match_report("A", "B", &Wdl::new(1, 0, 1), Some(&even), None),
            "Score of A vs B: 1 - 1 - 0  [0.500] 2\n\
             Elo difference: 0.0 (interval unbounded: too few games), LOS: 50.0 %, DrawRatio: 0.0 %\n\
             Ptnml(0-2): [0, 0, 1, 0, 0], pair Elo: 0.0 (no interval: every result alike)\n"
        );
        assert_eq!(number(-0.04, 1), "0.0");
        assert_eq!(number(-0.06, 1), "-0.1");
        assert_eq!(
            match_report("A", "B", &Wdl::default(), Some(&Penta::default()), None),
            "Score of A vs B: 0 - 0 - 0  [-] 0\n"
        );
    }

    fn game(s: &str, n: &str, r: GameResult, forfeit: Option<&str>) -> ScoredGame {
        ScoredGame {
            south: s.into(),
            north: n.into(),
            result: r,
            forfeit: forfeit.map(Into::into),
        }
    }

    #[test]
    fn a_gauntlet_ranks_by_score_not_by_points() {
        use GameResult::*;
        // Gauntlet: G plays A and B twice each, scoring 2 of 4 (50 %); A
        // beats G twice (100 %), B loses twice (0 %). By points G (2.0) and
        // A (2.0) tie and G's more games would decide; by score A leads.
        let games = [
            game("A", "G", SouthWins, None),
            game("G", "A", NorthWins, None),
            game("B", "G", NorthWins, None),
            game("G", "B", SouthWins, None),
        ];
        let names = ["G".to_owned(), "A".to_owned(), "B".to_owned()];
        let order: Vec<(String, u32)> = Standings::build(&names, &games)
            .engines
            .iter()
            .map(|e| (e.name.clone(), e.wdl.games()))
            .collect();
        assert_eq!(
            order,
            [
                ("A".to_owned(), 2),
                ("G".to_owned(), 4),
                ("B".to_owned(), 2)
            ]
        );
    }

    #[test]
    fn standings_with_sonneborn_berger() {
        use GameResult::*;
        // A–B 1-0, C–A ½, B–C 1-0, B–A 0-1 (B lost on time).
        // Points: A = 1 + ½ + 1 = 2.5, B = 1, C = ½, D (no games) = 0.
        // SB: A = 2 wins over B (2·1) + draw with C (½·½) = 2.25;
        //     B = win over C (0.5) = 0.5; C = draw with A (½·2.5) = 1.25.
        let games = [
            game("A", "B", SouthWins, None),
            game("C", "A", Draw, None),
            game("B", "C", SouthWins, None),
            game("B", "A", NorthWins, Some("time_forfeit")),
        ];
        let names = ["D".to_owned(), "C".to_owned()];
        let st = Standings::build(&names, &games);
        let order: Vec<&str> = st.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(order, ["A", "B", "C", "D"]);
        let sb: Vec<f64> = st.engines.iter().map(|e| e.sonneborn_berger).collect();
        assert_eq!(sb, [2.25, 0.5, 1.25, 0.0]);
        assert_eq!(st.engines[0].wdl, Wdl::new(2, 1, 0));
        assert_eq!(st.engines[1].forfeits.get("time_forfeit"), Some(&1));
        assert!(st.engines[0].forfeits.is_empty());
        assert_eq!(
            st.cross[0][1],
            PairScore {
                half_points: 4,
                games: 2
            }
        );
        assert_eq!(
            st.cross[2][0],
            PairScore {
                half_points: 1,
                games: 1
            }
        );
        let expected = "\
Rank Name Games Points  Score    W    D    L      SB Forfeits       |     1     2     3     4
   1 A        3    2.5  83.3%    2    1    0    2.25 -              |     x   2/2 0.5/1     -
   2 B        3    1.0  33.3%    1    0    2    0.50 time_forfeit:1 |   0/2     x   1/1     -
   3 C        2    0.5  25.0%    0    1    1    1.25 -              | 0.5/1   0/1     x     -
   4 D        0    0.0      -    0    0    0    0.00 -              |     -     -     -     x
";
        assert_eq!(st.render(), expected);
    }

    #[test]
    fn ties_are_broken_by_sonneborn_berger() {
        use GameResult::*;
        // A–C 1-0, B–C 1-0, A–B 0-1, A–C 1-0 → A 2, B 2, C 0.
        // SB(A) = 2·0 (C) + 0 = 0; SB(B) = 0 (C) + 1·2 (A) = 2 → B first.
        let games = [
            game("A", "C", SouthWins, None),
            game("B", "C", SouthWins, None),
            game("A", "B", NorthWins, None),
            game("A", "C", SouthWins, None),
        ];
        let st = Standings::build(&[], &games);
        let order: Vec<&str> = st.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(order, ["B", "A", "C"]);
        assert_eq!(st.engines[0].points(), st.engines[1].points());
    }
}
