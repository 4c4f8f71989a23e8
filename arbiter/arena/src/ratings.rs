//! A pool's ratings: the maximum-likelihood Elo fit of [`arbiter_core::stats::rating`]
//! (the tournament report's, with its virtual draw per pairing and 95%
//! intervals) over every finished game of the pool. Without anchors the
//! field average is 0; with [`crate::anchors`] among the pool's bots their
//! ratings are held and the others fitted around them
//! ([`fit_anchored`]: a part of the field that never met an anchor keeps
//! its own average 0). A bot is **provisional** until it has
//! [`PROVISIONAL_GAMES`] games (an anchor never is). The same function rates the database's
//! games and an exported log's, so the two can be compared (given the same
//! anchors). The server keeps a [`Tally`] of each pool, added to as games
//! finish, so a refit does not read the pool's games again.

use std::collections::BTreeMap;

use mancala_rules::{GameResult, Side};
use serde::Serialize;

use crate::anchors::Anchors;
use arbiter_core::stats::rating::{fit_anchored, Results};

/// Games a bot plays before its rating stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 20;

/// One bot's line of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rated {
    pub name: String,
    /// Elo: an anchor's value, else fitted around the pool's anchors (field
    /// average 0 without them).
    pub rating: f64,
    /// Half the 95% interval; `None` when unknown (a bot that has met no
    /// one, or a field in parts that never met, or a part without an
    /// anchor); 0 for an anchor.
    pub interval: Option<f64>,
    /// Whether the rating is held at the bot's anchor.
    pub anchor: bool,
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

/// A pool's results as the fit takes them: each player's wins, draws and
/// losses, and each pair's games and points. The server adds each game as
/// it finishes, so a refit reads no game again: a tally's size is the
/// players' and their pairs', not the games'. The fit is of these sums
/// only, so the order the games were added in changes nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Each player's `[wins, draws, losses]`.
    players: BTreeMap<String, [u32; 3]>,
    /// Each pair that met, `a` then `b` with `a < b`: its games and `a`'s
    /// half points. (why two levels: a game is added without a new key.)
    pairs: BTreeMap<String, BTreeMap<String, (u32, u32)>>,
    games: u64,
}

impl Tally {
    /// Adds one game. Both players are listed from then on, even by a game
    /// of a player against itself (which counts nowhere else).
    pub fn add(&mut self, game: &Game<'_>) {
        for name in [game.south, game.north] {
            if !self.players.contains_key(name) {
                self.players.insert(name.to_owned(), [0; 3]);
            }
        }
        if game.south == game.north {
            return;
        }
        let hp = game.result.half_points(Side::South);
        for (name, half) in [(game.south, hp), (game.north, 2 - hp)] {
            if let Some(wdl) = self.players.get_mut(name) {
                wdl[match half {
                    2 => 0,
                    1 => 1,
                    _ => 2,
                }] += 1;
            }
        }
        let (a, b, hp_a) = if game.south < game.north {
            (game.south, game.north, hp)
        } else {
            (game.north, game.south, 2 - hp)
        };
        if !self.pairs.contains_key(a) {
            self.pairs.insert(a.to_owned(), BTreeMap::new());
        }
        if let Some(row) = self.pairs.get_mut(a) {
            if !row.contains_key(b) {
                row.insert(b.to_owned(), (0, 0));
            }
            if let Some(pair) = row.get_mut(b) {
                pair.0 += 1;
                pair.1 += hp_a;
            }
        }
        self.games += 1;
    }

    /// The games added between two players (not those of a player against itself).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Rates the players (best first; ties by name), those in `anchors`
    /// held at their values (an anchor without a game here is not listed).
    pub fn rate(&self, anchors: &Anchors) -> Vec<Rated> {
        // why by name: the players' order must not depend on the games'
        // order, so a tally kept game by game and one of an export agree.
        let index: BTreeMap<&str, usize> = self
            .players
            .keys()
            .enumerate()
            .map(|(i, name)| (name.as_str(), i))
            .collect();
        let mut results = Results::new(index.len());
        for ((a, b), &(games, hp)) in self
            .pairs
            .iter()
            .flat_map(|(a, row)| row.iter().map(move |(b, pair)| ((a, b), pair)))
        {
            let (i, j) = (index[a.as_str()], index[b.as_str()]);
            results.games[i][j] += games;
            results.games[j][i] += games;
            results.half_points[i][j] += hp;
            results.half_points[j][i] += 2 * games - hp;
        }
        let held: Vec<(usize, f64)> = anchors
            .iter()
            .filter_map(|(name, &r)| Some((*index.get(name.as_str())?, r)))
            .collect();
        let ratings = fit_anchored(&results, &held);
        let mut out: Vec<Rated> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, (name, wdl))| {
                let [wins, draws, losses] = *wdl;
                let games = wins + draws + losses;
                let margin = ratings.margin(i);
                Rated {
                    name: name.clone(),
                    rating: ratings.elo[i],
                    interval: margin.is_finite().then_some(margin),
                    anchor: ratings.anchored[i],
                    games,
                    wins,
                    draws,
                    losses,
                    score: if games == 0 {
                        0.0
                    } else {
                        (f64::from(wins) + f64::from(draws) / 2.0) / f64::from(games)
                    },
                    // why never for an anchor: its rating is given, not measured.
                    provisional: games < PROVISIONAL_GAMES && !ratings.anchored[i],
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
}

/// Rates the bots of `games` (best first; ties by name), those in
/// `anchors` held at their values (an anchor without a game here is not
/// listed).
pub fn rate<'a>(games: impl IntoIterator<Item = Game<'a>>, anchors: &Anchors) -> Vec<Rated> {
    let mut tally = Tally::default();
    for g in games {
        tally.add(&g);
    }
    tally.rate(anchors)
}

/// Rates stored games (`(id, south, north, PGN result)`, as
/// `store::scored` reads them: why not by its name, the store builds on
/// this module's tally, and modules do not import each other in a circle); games whose
/// result is not a PGN result token are left out.
pub fn rate_scored(games: &[(i64, String, String, String)], anchors: &Anchors) -> Vec<Rated> {
    rate(
        games.iter().filter_map(|(_, south, north, result)| {
            Some(Game {
                south,
                north,
                result: GameResult::from_pgn(result)?,
            })
        }),
        anchors,
    )
}

/// Rates the games of a log (an export) with the given anchors (those of
/// [`crate::anchors::for_players`] give the ladder's numbers).
pub fn rate_logs(logs: &[arbiter_core::records::log::GameLog], anchors: &Anchors) -> Vec<Rated> {
    rate(
        logs.iter().filter_map(|l| {
            Some(Game {
                south: &l.south,
                north: &l.north,
                result: l.result?,
            })
        }),
        anchors,
    )
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
        let rated = rate(games.iter().cloned(), &Anchors::new());
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
        let f = arbiter_core::stats::rating::fit(&r);
        let by_name: BTreeMap<_, _> = rated.iter().map(|x| (x.name.as_str(), x)).collect();
        for (name, i) in [("a", a), ("b", b), ("c", c)] {
            assert!((by_name[name].rating - f.elo[i]).abs() < 1e-9);
            assert!((by_name[name].interval.unwrap() - f.margin(i)).abs() < 1e-9);
        }
        let sum: f64 = rated.iter().map(|x| x.rating).sum();
        assert!(sum.abs() < 1e-6);
        assert!(rated.iter().all(|x| x.provisional && !x.anchor));
    }

    #[test]
    fn an_anchor_is_held_and_the_others_placed_around_it() {
        use GameResult::*;
        // b scores 3 of 4 against a (held at 1500): with the virtual draw
        // s = 3.5/5, b = 1500 + 400·log10(0.7/0.3).
        let games = [
            g("a", "b", NorthWins),
            g("b", "a", SouthWins),
            g("a", "b", SouthWins),
            g("b", "a", SouthWins),
        ];
        let anchors: Anchors = [("a".to_owned(), 1500.0), ("absent".to_owned(), 0.0)].into();
        let rated = rate(games.iter().cloned(), &anchors);
        assert_eq!(
            rated.len(),
            2,
            "an anchor without a game here is not listed"
        );
        let (b, a) = (&rated[0], &rated[1]);
        assert_eq!(
            (a.name.as_str(), a.rating, a.interval, a.anchor),
            ("a", 1500.0, Some(0.0), true)
        );
        assert_eq!((b.name.as_str(), b.anchor), ("b", false));
        assert!(!a.provisional && b.provisional);
        let want = 1500.0 + 400.0 * (0.7f64 / 0.3).log10();
        assert!((b.rating - want).abs() < 1e-6, "{b:?}");
        assert!(b.interval.is_some_and(|m| m > 0.0), "{b:?}");
        // Without the anchor: the average is 0 and the gap the same.
        let free = rate(games.iter().cloned(), &Anchors::new());
        assert!((free[0].rating + free[1].rating).abs() < 1e-9);
        assert!(((free[0].rating - free[1].rating) - (b.rating - a.rating)).abs() < 1e-6);
    }

    #[test]
    fn a_tally_kept_game_by_game_rates_as_all_the_games_at_once() {
        use GameResult::*;
        let games = [
            g("b", "a", SouthWins),
            g("a", "b", Draw),
            g("c", "a", NorthWins),
            g("a", "c", NorthWins),
            g("c", "b", SouthWins),
            g("b", "c", Draw),
            g("d", "d", SouthWins),
        ];
        let anchors: Anchors = [("c".to_owned(), 200.0)].into();
        let mut kept = Tally::default();
        let mut reversed = Tally::default();
        for (i, game) in games.iter().enumerate() {
            kept.add(game);
            // A refit between games changes nothing of the tally.
            assert_eq!(
                kept.rate(&anchors),
                rate(games[..=i].iter().cloned(), &anchors)
            );
        }
        for game in games.iter().rev() {
            reversed.add(game);
        }
        assert_eq!(kept, reversed, "the order of the games does not matter");
        assert_eq!(kept.games(), 6, "a game against oneself counts nowhere");
        let rated = kept.rate(&anchors);
        let d = rated.iter().find(|r| r.name == "d").expect("listed");
        assert_eq!((d.games, d.interval), (0, None));
        let a = rated.iter().find(|r| r.name == "a").expect("listed");
        assert_eq!((a.wins, a.draws, a.losses), (1, 1, 2));
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
        let rated = rate(games, &Anchors::new());
        let by_name: BTreeMap<_, _> = rated.iter().map(|x| (x.name.as_str(), x)).collect();
        assert!(!by_name["a"].provisional && by_name["a"].games == PROVISIONAL_GAMES + 1);
        assert!(!by_name["b"].provisional);
        assert!(by_name["c"].provisional);
    }
}
