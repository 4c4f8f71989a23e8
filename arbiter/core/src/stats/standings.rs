//! Tournament standings: points, Sonneborn-Berger, ranks and the
//! crosstable.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mancala_rules::{GameResult, Side};

use super::counts::Wdl;

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
pub(super) fn half(hp: u32) -> String {
    // f64 `Display` writes 2.0 as `2` and 1.5 as `1.5`.
    (f64::from(hp) / 2.0).to_string()
}
