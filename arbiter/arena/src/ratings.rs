//! A pool's ratings: the maximum-likelihood Elo fit of [`arbiter_core::stats::rating`]
//! (the tournament report's, with its virtual draw per pairing and 95%
//! intervals) over every finished game of the pool, anchored at a field
//! average of 0. A bot is **provisional** until it has
//! [`PROVISIONAL_GAMES`] games. The same function rates the database's
//! games and an exported log's, so the two can be compared.

use std::collections::BTreeMap;

use mancala_rules::{GameResult, Side};
use serde::Serialize;

use arbiter_core::stats::rating::{fit, Results};

/// Games a bot plays before its rating stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 20;

/// One bot's line of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rated {
    pub name: String,
    /// Elo, field average 0.
    pub rating: f64,
    /// Half the 95% interval; `None` when unknown (a bot that has met no
    /// one, or a field in parts that never met).
    pub interval: Option<f64>,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points per game, 0 to 1.
    pub score: f64,
    pub provisional: bool,
}

/// One game as the fit sees it.
#[derive(Clone, Debug)]
pub struct Game<'a> {
    pub south: &'a str,
    pub north: &'a str,
    pub result: GameResult,
}

/// Rates the bots of `games` (best first; ties by name).
pub fn rate<'a>(games: impl IntoIterator<Item = Game<'a>>) -> Vec<Rated> {
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let games: Vec<Game<'a>> = games.into_iter().collect();
    for g in &games {
        for name in [g.south, g.north] {
            let next = index.len();
            index.entry(name).or_insert(next);
        }
    }
    let n = index.len();
    let mut results = Results::new(n);
    let mut wdl = vec![[0u32; 3]; n];
    for g in &games {
        let (s, t) = (index[g.south], index[g.north]);
        if s == t {
            continue;
        }
        let hp = g.result.half_points(Side::South);
        results.add(s, t, hp);
        for (i, half) in [(s, hp), (t, 2 - hp)] {
            wdl[i][match half {
                2 => 0,
                1 => 1,
                _ => 2,
            }] += 1;
        }
    }
    let ratings = fit(&results);
    let mut out: Vec<Rated> = index
        .iter()
        .map(|(name, &i)| {
            let [wins, draws, losses] = wdl[i];
            let games = wins + draws + losses;
            let margin = ratings.margin(i);
            Rated {
                name: (*name).to_owned(),
                rating: ratings.elo[i],
                interval: margin.is_finite().then_some(margin),
                games,
                wins,
                draws,
                losses,
                score: if games == 0 {
                    0.0
                } else {
                    (f64::from(wins) + f64::from(draws) / 2.0) / f64::from(games)
                },
                provisional: games < PROVISIONAL_GAMES,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}

/// Rates stored games (`(id, south, north, PGN result)`); games whose
/// result is not a PGN result token are left out.
pub fn rate_scored(games: &[crate::store::Scored]) -> Vec<Rated> {
    rate(games.iter().filter_map(|(_, south, north, result)| {
        Some(Game {
            south,
            north,
            result: GameResult::from_pgn(result)?,
        })
    }))
}

/// Rates the games of a log (an export).
pub fn rate_logs(logs: &[arbiter_core::records::log::GameLog]) -> Vec<Rated> {
    rate(logs.iter().filter_map(|l| {
        Some(Game {
            south: &l.south,
            north: &l.north,
            result: l.result?,
        })
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g<'a>(south: &'a str, north: &'a str, result: GameResult) -> Game<'a> {
        Game {
            south,
            north,
            result,
        }
    }

    #[test]
    fn the_fit_is_the_tournament_reports() {
        use GameResult::*;
        let games = [
            g("a", "b", SouthWins),
            g("b", "a", Draw),
            g("a", "c", SouthWins),
            g("c", "a", NorthWins),
            g("b", "c", Draw),
            g("c", "b", SouthWins),
        ];
        let rated = rate(games.iter().cloned());
        assert_eq!(rated[0].name, "a");
        assert_eq!((rated[0].wins, rated[0].draws, rated[0].losses), (3, 1, 0));
        assert!((rated[0].score - 0.875).abs() < 1e-12);
        // The same numbers as stats::rating's fit on the same table.
        let mut r = Results::new(3);
        let (a, b, c) = (0, 1, 2);
        r.add(a, b, 2);
        r.add(b, a, 1);
        r.add(a, c, 2);
        r.add(c, a, 0);
        r.add(b, c, 1);
        r.add(c, b, 2);
        let f = fit(&r);
        let by_name: BTreeMap<_, _> = rated.iter().map(|x| (x.name.as_str(), x)).collect();
        for (name, i) in [("a", a), ("b", b), ("c", c)] {
            assert!((by_name[name].rating - f.elo[i]).abs() < 1e-9);
            assert!((by_name[name].interval.unwrap() - f.margin(i)).abs() < 1e-9);
        }
        let sum: f64 = rated.iter().map(|x| x.rating).sum();
        assert!(sum.abs() < 1e-6);
        assert!(rated.iter().all(|x| x.provisional));
    }

    #[test]
    fn provisional_until_enough_games() {
        let mut games = Vec::new();
        for i in 0..PROVISIONAL_GAMES {
            let result = if i % 2 == 0 {
                GameResult::SouthWins
            } else {
                GameResult::Draw
            };
            games.push(g("a", "b", result));
        }
        games.push(g("a", "c", GameResult::Draw));
        let rated = rate(games);
        let by_name: BTreeMap<_, _> = rated.iter().map(|x| (x.name.as_str(), x)).collect();
        assert!(!by_name["a"].provisional && by_name["a"].games == PROVISIONAL_GAMES + 1);
        assert!(!by_name["b"].provisional);
        assert!(by_name["c"].provisional);
    }
}
