//! The standings of formats paired round by round: a Swiss's table with its
//! tie-breaks, a knockout's bracket. Pure data and arithmetic: the pairing
//! itself is in [`crate::event::formats`].
//!
//! Swiss scores count game points (a pair of games per game id each round)
//! plus the bye's points. Tie-breaks, as FIDE's tie-break regulations name
//! them, with the bye round counted as a game against a virtual opponent
//! whose score is the engine's own (FIDE's 2023 rule for unplayed rounds):
//!
//! - Buchholz: the sum of the opponents' scores;
//! - median Buchholz: the same without the highest and the lowest (with three
//!   rounds or more);
//! - Sonneborn–Berger: the sum, over rounds, of the points scored in the round
//!   times that round's opponent's score.
//!
//! The table is ordered by score, Buchholz, median Buchholz,
//! Sonneborn–Berger, then the engine's place in the engine list.

use serde::Serialize;

/// One round of one engine in a Swiss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEntry {
    /// `None`: the bye.
    pub opponent: Option<usize>,
    /// Half points scored in the round (its games, or the bye).
    pub half_points: u32,
}

/// An engine's Swiss score and tie-breaks, exact: in half points, and
/// Sonneborn–Berger in quarter points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tiebreaks {
    pub half_points: u32,
    pub byes: u32,
    pub buchholz: u32,
    pub median_buchholz: u32,
    pub sonneborn_berger: u64,
}

/// The tie-breaks of every engine from its rounds (`entries[engine]`).
pub fn tiebreaks(entries: &[Vec<RoundEntry>]) -> Vec<Tiebreaks> {
    let score: Vec<u32> = entries
        .iter()
        .map(|rounds| rounds.iter().map(|r| r.half_points).sum())
        .collect();
    entries
        .iter()
        .enumerate()
        .map(|(me, rounds)| {
            let opponent_scores: Vec<u32> = rounds
                .iter()
                .map(|r| r.opponent.map_or(score[me], |o| score[o]))
                .collect();
            let buchholz: u32 = opponent_scores.iter().sum();
            let median_buchholz = if opponent_scores.len() >= 3 {
                let (lo, hi) = opponent_scores
                    .iter()
                    .fold((u32::MAX, 0), |(lo, hi), &s| (lo.min(s), hi.max(s)));
                buchholz - lo - hi
            } else {
                buchholz
            };
            let sonneborn_berger = rounds
                .iter()
                .zip(&opponent_scores)
                .map(|(r, &s)| u64::from(r.half_points) * u64::from(s))
                .sum();
            Tiebreaks {
                half_points: score[me],
                byes: rounds.iter().filter(|r| r.opponent.is_none()).count() as u32,
                buchholz,
                median_buchholz,
                sonneborn_berger,
            }
        })
        .collect()
}

/// One line of a Swiss table.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SwissLine {
    pub rank: usize,
    pub name: String,
    /// Game points plus the byes' points.
    pub points: f64,
    pub byes: u32,
    pub buchholz: f64,
    pub median_buchholz: f64,
    pub sonneborn_berger: f64,
    /// The opponent of each round, `null` for the bye.
    pub opponents: Vec<Option<String>>,
}

/// The Swiss table of `names` from their rounds, best first.
pub fn swiss_table(names: &[String], entries: &[Vec<RoundEntry>]) -> Vec<SwissLine> {
    let tb = tiebreaks(entries);
    let mut order: Vec<usize> = (0..names.len().min(entries.len())).collect();
    order.sort_by_key(|&i| {
        let t = tb[i];
        (
            std::cmp::Reverse((
                t.half_points,
                t.buchholz,
                t.median_buchholz,
                t.sonneborn_berger,
            )),
            i,
        )
    });
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let t = tb[i];
            SwissLine {
                rank: rank + 1,
                name: names[i].clone(),
                points: f64::from(t.half_points) / 2.0,
                byes: t.byes,
                buchholz: f64::from(t.buchholz) / 2.0,
                median_buchholz: f64::from(t.median_buchholz) / 2.0,
                sonneborn_berger: t.sonneborn_berger as f64 / 4.0,
                opponents: entries[i]
                    .iter()
                    .map(|r| r.opponent.map(|o| names[o].clone()))
                    .collect(),
            }
        })
        .collect()
}

/// The Swiss table as text.
pub fn render_swiss(lines: &[SwissLine]) -> String {
    let width = lines.iter().map(|l| l.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "Swiss  Rank {:width$}  Points  Buchholz  Median  S-B     Byes\n",
        "Name"
    );
    for l in lines {
        out.push_str(&format!(
            "       {:>4} {:width$}  {:>6.1}  {:>8.1}  {:>6.1}  {:>6.2}  {:>4}\n",
            l.rank, l.name, l.points, l.buchholz, l.median_buchholz, l.sonneborn_berger, l.byes
        ));
    }
    out
}

/// One encounter of a knockout.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Encounter {
    /// The better seed.
    pub first: String,
    /// `null`: a bye.
    pub second: Option<String>,
    pub first_points: f64,
    pub second_points: f64,
    /// Game pairs played (tie-break pairs included).
    pub pairs: u32,
    /// `null` while undecided.
    pub winner: Option<String>,
    /// How it was decided: `games`, `seed` (tied after the tie-break pairs:
    /// the better seed goes through), `bye`; `null` while undecided.
    pub decided_by: Option<&'static str>,
}

/// The bracket as text: one line per encounter, round by round.
pub fn render_bracket(rounds: &[Vec<Encounter>]) -> String {
    let mut out = String::new();
    for (r, encounters) in rounds.iter().enumerate() {
        out.push_str(&format!("Knockout round {}\n", r + 1));
        for e in encounters {
            let line = match &e.second {
                None => format!("  {} — bye", e.first),
                Some(second) => format!(
                    "  {} {}-{} {} ({} pair(s)){}",
                    e.first,
                    e.first_points,
                    e.second_points,
                    second,
                    e.pairs,
                    match (&e.winner, e.decided_by) {
                        (Some(w), Some("seed")) => format!(": {w} goes through on seed"),
                        (Some(w), _) => format!(": {w} goes through"),
                        _ => String::new(),
                    }
                ),
            };
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(opponent: Option<usize>, half_points: u32) -> RoundEntry {
        RoundEntry {
            opponent,
            half_points,
        }
    }

    #[test]
    fn tiebreaks_by_hand() {
        // Three engines, three rounds of pairs (4 half points a round):
        // 0 beat 1 (3-1), had the bye (4), lost to 2 (0-4)
        // 1 lost to 0 (1-3), drew 2 (2-2), had the bye (4)
        // 2 had the bye (4), drew 1 (2-2), beat 0 (4-0)
        let entries = vec![
            vec![e(Some(1), 3), e(None, 4), e(Some(2), 0)],
            vec![e(Some(0), 1), e(Some(2), 2), e(None, 4)],
            vec![e(None, 4), e(Some(1), 2), e(Some(0), 4)],
        ];
        let t = tiebreaks(&entries);
        assert_eq!(
            t.iter().map(|t| t.half_points).collect::<Vec<_>>(),
            [7, 7, 10]
        );
        // 0: opponents 1 (7), itself (7), 2 (10).
        assert_eq!(t[0].buchholz, 24);
        assert_eq!(t[0].median_buchholz, 7);
        assert_eq!(t[0].sonneborn_berger, 3 * 7 + 4 * 7);
        // 2: itself (10), 1 (7), 0 (7).
        assert_eq!(t[2].buchholz, 24);
        assert_eq!(t[2].sonneborn_berger, 4 * 10 + 2 * 7 + 4 * 7);
        assert_eq!(t[1].byes, 1);
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let table = swiss_table(&names, &entries);
        assert_eq!(table[0].name, "c");
        assert_eq!(table[0].points, 5.0);
        // a and b tie on points, Buchholz (24) and median (7); b's
        // Sonneborn–Berger, 1·7 + 2·10 + 4·7 = 55, beats a's 49.
        assert_eq!(t[1].sonneborn_berger, 55);
        assert_eq!(table[1].name, "b");
        assert_eq!(
            table[2].opponents,
            [Some("b".into()), None, Some("c".into())]
        );
        assert!(render_swiss(&table).contains("Buchholz"));
    }
}
