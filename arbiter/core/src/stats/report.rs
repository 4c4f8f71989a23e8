//! The report of an event (a tournament, or merged results logs): standings
//! with forfeits and Sonneborn-Berger, the crosstable, Elo of every engine
//! relative to the field ([`crate::stats::rating`]) with LOS between neighbours in
//! the ranking, terminations, and — with two engines — the match report
//! (trinomial and pentanomial Elo, LOS, SPRT).
//!
//! Everything is computed from the games sorted by schedule slot, so the same
//! games give the same report whatever order they finished in.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mancala_rules::{GameResult, Side};

use crate::records::log::GameLog;
use crate::records::slot::SlotKey;
use crate::stats::rating::{self, Results};
use crate::stats::{match_report, Penta, ScoredGame, Sprt, SprtState, Standings, Wdl};

/// Sorts games by schedule slot (untagged games after, in their order).
pub fn sort_games(games: &mut [GameLog]) {
    games.sort_by_key(|g| SlotKey::of(g).map_or(usize::MAX, |k| k.index));
}

/// What a report needs of an event's games, kept as counts: its size does
/// not grow with the number of games (engines² × results × forfeit kinds),
/// and adding a game takes constant time. The games can come in any order.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Finished games by (South, North, South's half points, forfeit kind).
    scored: BTreeMap<(String, String, u32, Option<String>), u32>,
    /// Finished games by termination kind, with who forfeited them.
    terminations: BTreeMap<&'static str, (u32, BTreeMap<String, u32>)>,
    finished: u32,
    /// The first engine of the event, for the head-to-head figures.
    first: Option<String>,
    h2h: Wdl,
    penta: Penta,
    /// First game's half points (from `first`'s side) of pairs still open.
    open_pairs: BTreeMap<usize, u32>,
    /// Pairs are not counted (see [`Tally::without_pairs`]).
    no_pairs: bool,
}

impl Tally {
    /// An empty tally for an event of `names` (the first one is the
    /// reference of the head-to-head figures).
    pub fn new(names: &[String]) -> Tally {
        Tally {
            first: names.first().cloned(),
            ..Tally::default()
        }
    }

    /// A tally that leaves the game pairs out (its pentanomial stays
    /// empty) and so can take games back ([`Tally::remove`]): for a caller
    /// that counts the pairs itself (`serve --watch`, whose kept copy of a
    /// slot can be replaced).
    pub fn without_pairs(names: &[String]) -> Tally {
        Tally {
            no_pairs: true,
            ..Tally::new(names)
        }
    }

    /// The tally of `games`.
    pub fn of(names: &[String], games: &[GameLog]) -> Tally {
        let mut t = Tally::new(names);
        for g in games {
            t.add(g);
        }
        t
    }

    /// Counts one game (an unfinished one, `*`, is not counted).
    pub fn add(&mut self, g: &GameLog) {
        let Some(scored) = g.scored() else { return };
        self.finished += 1;
        let entry = self.terminations.entry(g.termination.kind()).or_default();
        entry.0 += 1;
        if let Some(side) = g.termination.offender() {
            let name = match side {
                Side::South => &g.south,
                Side::North => &g.north,
            };
            *entry.1.entry(name.clone()).or_default() += 1;
        }
        let key = (
            scored.south,
            scored.north,
            scored.result.half_points(Side::South),
            scored.forfeit,
        );
        *self.scored.entry(key).or_default() += 1;
        let side = match &self.first {
            Some(f) if *f == g.south => Side::South,
            Some(f) if *f == g.north => Side::North,
            _ => return,
        };
        let hp = scored.result.half_points(side);
        self.h2h.add(hp);
        if self.no_pairs {
            return;
        }
        if let Some(pair) = SlotKey::of(g).and_then(|k| k.pair) {
            match self.open_pairs.remove(&pair) {
                Some(first) => self.penta.add_games(first, hp),
                None => {
                    self.open_pairs.insert(pair, hp);
                }
            }
        }
    }

    /// Takes back one game counted by [`Tally::add`] (a tally made by
    /// [`Tally::without_pairs`]: a pair's other game is not known here).
    pub fn remove(&mut self, g: &GameLog) {
        debug_assert!(self.no_pairs, "only a tally without pairs takes games back");
        let Some(scored) = g.scored() else { return };
        self.finished -= 1;
        let kind = g.termination.kind();
        if let Some(entry) = self.terminations.get_mut(kind) {
            entry.0 -= 1;
            if let Some(side) = g.termination.offender() {
                let name = match side {
                    Side::South => &g.south,
                    Side::North => &g.north,
                };
                decrement(&mut entry.1, name);
            }
            if entry.0 == 0 {
                self.terminations.remove(kind);
            }
        }
        let key = (
            scored.south,
            scored.north,
            scored.result.half_points(Side::South),
            scored.forfeit,
        );
        decrement(&mut self.scored, &key);
        let side = match &self.first {
            Some(f) if *f == g.south => Side::South,
            Some(f) if *f == g.north => Side::North,
            _ => return,
        };
        match scored.result.half_points(side) {
            2.. => self.h2h.wins -= 1,
            1 => self.h2h.draws -= 1,
            0 => self.h2h.losses -= 1,
        }
    }

    /// Finished games counted.
    pub fn finished(&self) -> u32 {
        self.finished
    }

    fn counted(&self) -> Vec<(ScoredGame, u32)> {
        self.scored
            .iter()
            .map(|((south, north, hp, forfeit), &n)| {
                let result = match hp {
                    2 => GameResult::SouthWins,
                    0 => GameResult::NorthWins,
                    _ => GameResult::Draw,
                };
                let game = ScoredGame {
                    south: south.clone(),
                    north: north.clone(),
                    result,
                    forfeit: forfeit.clone(),
                };
                (game, n)
            })
            .collect()
    }

    /// The standings.
    pub fn standings(&self, names: &[String]) -> Standings {
        Standings::build_counted(names, &self.counted())
    }

    /// One line for progress output: `Standings after 12 games: A 5.5/7, …`.
    pub fn short_standings(&self, names: &[String]) -> String {
        let st = self.standings(names);
        let parts: Vec<String> = st
            .engines
            .iter()
            .map(|e| format!("{} {}/{}", e.name, e.points(), e.wdl.games()))
            .collect();
        format!(
            "Standings after {} games: {}",
            self.finished,
            parts.join(", ")
        )
    }

    /// The first engine's results against the other: games and game pairs.
    pub fn head_to_head(&self) -> (Wdl, Penta) {
        (self.h2h, self.penta)
    }

    /// The SPRT's log-likelihood ratio and state (pentanomial when there are
    /// complete pairs, as in [`match_report`]).
    pub fn sprt_status(&self, sprt: &Sprt) -> (f64, SprtState) {
        let llr = if self.penta.pairs() > 0 {
            sprt.llr_penta(&self.penta)
        } else {
            sprt.llr_wdl(&self.h2h)
        };
        (llr, sprt.state(llr))
    }

    /// The engines in the order of `st` (these standings) and their ratings
    /// (index `i` of the ratings is `order[i]`).
    pub fn ratings(&self, st: &Standings) -> (Vec<String>, rating::Ratings) {
        let order: Vec<String> = st.engines.iter().map(|e| e.name.clone()).collect();
        let mut results = Results::new(order.len());
        for (g, n) in &self.counted() {
            let (Some(s), Some(no)) = (
                order.iter().position(|x| *x == g.south),
                order.iter().position(|x| *x == g.north),
            ) else {
                continue;
            };
            for _ in 0..*n {
                results.add(s, no, g.result.half_points(Side::South));
            }
        }
        let fit = rating::fit(&results);
        (order, fit)
    }

    /// Finished games by termination kind.
    pub fn terminations(&self) -> BTreeMap<String, u32> {
        self.terminations
            .iter()
            .map(|(k, (n, _))| ((*k).to_owned(), *n))
            .collect()
    }

    /// The Elo table relative to the field average, with LOS over the next.
    fn render_field_elo(&self, st: &Standings, out: &mut String) {
        let (order, fit) = self.ratings(st);
        out.push('\n');
        out.push_str(
                "Elo relative to the field average (maximum likelihood, one virtual draw per pairing), \
                 95% interval, LOS over the next in rank:\n",
            );
        let name_w = order
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        let _ = writeln!(
            out,
            "{:>4} {:<name_w$} {:>7} {:>7} {:>7}",
            "Rank", "Name", "Elo", "+/-", "LOS"
        );
        for (i, name) in order.iter().enumerate() {
            let margin = fit.margin(i);
            let margin = if margin.is_finite() {
                format!("{margin:.1}")
            } else {
                "-".to_owned()
            };
            let los = (i + 1 < order.len())
                .then(|| fit.los(i, i + 1))
                .flatten()
                .map_or_else(|| "-".to_owned(), |l| format!("{:.1}%", l * 100.0));
            let _ = writeln!(
                out,
                "{:>4} {:<name_w$} {:>+7.1} {:>7} {:>7}",
                i + 1,
                name,
                // why `+ 0.0`: an exact 0 may come out as −0, printed "-0.0".
                fit.elo[i] + 0.0,
                margin,
                los
            );
        }
    }

    /// The full report.
    pub fn render(&self, names: &[String], sprt: Option<&Sprt>) -> String {
        let st = self.standings(names);
        let mut out = st.render();
        // why: two engines have one Elo, the difference of the match report
        // below; the field-average table would print a second, different
        // figure for the same event (its virtual draw keeps it finite).
        if names.len() != 2 {
            self.render_field_elo(&st, &mut out);
        }
        // A forfeit kind names who forfeited: `time_forfeit 3 (level-1 2, level-7 1)`.
        let terms: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, (n, by))| {
                if by.is_empty() {
                    format!("{k} {n}")
                } else {
                    let who: Vec<String> = by.iter().map(|(e, c)| format!("{e} {c}")).collect();
                    format!("{k} {n} ({})", who.join(", "))
                }
            })
            .collect();
        let _ = writeln!(out, "\nTerminations: {}", terms.join(", "));
        if names.len() == 2 {
            out.push('\n');
            out.push_str(&match_report(
                &names[0],
                &names[1],
                &self.h2h,
                Some(&self.penta),
                sprt,
            ));
        }
        out
    }
}

/// One less of `key`; the key goes at zero (an empty count is no count: the
/// standings list only what is there).
pub(crate) fn decrement<K: Ord + ?Sized, Q: Ord + std::borrow::Borrow<K>>(
    map: &mut BTreeMap<Q, u32>,
    key: &K,
) {
    if let Some(n) = map.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            map.remove(key);
        }
    }
}

/// The standings of the finished games.
pub fn standings(names: &[String], games: &[GameLog]) -> Standings {
    Tally::of(names, games).standings(names)
}

/// One line for progress output: `after 12 games: A 5.5/7, B 4/6, …`.
pub fn short_standings(names: &[String], games: &[GameLog]) -> String {
    Tally::of(names, games).short_standings(names)
}

/// Results of `names[0]` against `names[1]`: game W/D/L and game pairs.
pub fn head_to_head(names: &[String], games: &[GameLog]) -> (Wdl, Penta) {
    Tally::of(names, games).head_to_head()
}

/// The SPRT's log-likelihood ratio and state for a two-engine event
/// (pentanomial when there are complete pairs, as in [`match_report`]).
pub fn sprt_status(sprt: &Sprt, names: &[String], games: &[GameLog]) -> (f64, SprtState) {
    Tally::of(names, games).sprt_status(sprt)
}

/// The full report.
pub fn render(names: &[String], games: &[GameLog], sprt: Option<&Sprt>) -> String {
    Tally::of(names, games).render(names, sprt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::rules_log;

    fn game(south: &str, north: &str, result: GameResult, pair: usize) -> GameLog {
        let mut g = rules_log();
        g.south = south.into();
        g.north = north.into();
        g.result = Some(result);
        g.tags.insert("Schedule".into(), "x".into());
        g.tags.insert("Slot".into(), "0/8".into());
        g.tags.insert("Pair".into(), pair.to_string());
        g
    }

    #[test]
    fn two_engine_pairs_and_sprt() {
        use GameResult::*;
        let names = ["A".to_owned(), "B".to_owned()];
        // Pairs from A's side: (1, ½) = 1½, (½, ½) = 1, (0, 1) = 1, one unpaired win.
        let games = [
            game("A", "B", SouthWins, 0),
            game("B", "A", Draw, 0),
            game("A", "B", Draw, 1),
            game("B", "A", Draw, 1),
            game("A", "B", NorthWins, 2),
            game("B", "A", NorthWins, 2),
            game("A", "B", SouthWins, 3),
        ];
        let (wdl, penta) = head_to_head(&names, &games);
        assert_eq!(wdl, Wdl::new(3, 3, 1));
        assert_eq!(penta.counts, [0, 0, 2, 1, 0]);
        // Penta [0,0,2,1,0]: mean (0.5+0.5+0.75)/3 = 0.583333,
        // var = (2·0.083333² + 0.166667²)/3 = 0.0138889, var/N = 0.0046296;
        // elo0=0, elo1=10: s1 − s0 = 0.0143871, 2·mean − s0 − s1 = 0.1522795;
        // LLR = 0.0143871·0.1522795/0.0046296/2 = 0.236614.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (llr, state) = sprt_status(&sprt, &names, &games);
        assert!((llr - 0.236_614).abs() < 1e-5, "{llr}");
        assert_eq!(state, SprtState::Continue);
        let text = render(&names, &games, Some(&sprt));
        assert!(text.contains("Ptnml(0-2): [0, 0, 2, 1, 0]"), "{text}");
        assert!(text.contains("SPRT: llr 0.24"), "{text}");
        assert!(text.contains("Terminations: rules 7"), "{text}");
    }

    /// One event, one Elo: two engines get only the match report's
    /// difference (labelled), more engines the field-average table.
    #[test]
    fn two_engines_print_one_elo() {
        use GameResult::*;
        let names = ["A".to_owned(), "B".to_owned()];
        let games = [game("A", "B", SouthWins, 0), game("B", "A", NorthWins, 0)];
        let text = render(&names, &games, None);
        assert_eq!(text.matches("Elo difference: ").count(), 1, "{text}");
        assert!(text.contains("Elo difference: +inf"), "{text}");
        assert!(!text.contains("field average"), "{text}");
        let three = ["A".to_owned(), "B".to_owned(), "C".to_owned()];
        let games = [game("A", "B", SouthWins, 0), game("B", "C", Draw, 1)];
        let text = render(&three, &games, None);
        assert!(text.contains("Elo relative to the field average"), "{text}");
        assert!(!text.contains("Elo difference"), "{text}");
    }

    #[test]
    fn an_even_event_shows_no_negative_zero() {
        use GameResult::*;
        let names = ["A".to_owned(), "B".to_owned()];
        let games = [game("A", "B", SouthWins, 0), game("B", "A", SouthWins, 0)];
        let text = render(&names, &games, None);
        assert!(!text.contains("-0.0"), "{text}");
        assert!(text.contains("Elo difference: 0.0"), "{text}");
    }

    #[test]
    fn terminations_name_who_forfeited() {
        use crate::records::log::Termination;
        use GameResult::*;
        let names = ["A".to_owned(), "B".to_owned()];
        let flag = |south: &str, north: &str, side: Side| {
            let mut g = game(south, north, GameResult::win_for(side.opponent()), 0);
            g.termination = Termination::TimeForfeit {
                side,
                detail: "flag".into(),
            };
            g
        };
        let games = [
            game("A", "B", SouthWins, 0),
            flag("A", "B", Side::North),
            flag("B", "A", Side::South),
            flag("A", "B", Side::South),
        ];
        let text = render(&names, &games, None);
        assert!(
            text.contains("Terminations: rules 1, time_forfeit 3 (A 1, B 2)"),
            "{text}"
        );
    }

    #[test]
    fn report_is_independent_of_finish_order() {
        use GameResult::*;
        let names = ["A".to_owned(), "B".to_owned(), "C".to_owned()];
        let mut games = vec![
            game("A", "B", SouthWins, 0),
            game("C", "A", Draw, 1),
            game("B", "C", NorthWins, 2),
            game("C", "B", SouthWins, 2),
        ];
        for (i, g) in games.iter_mut().enumerate() {
            g.tags.insert("Slot".into(), format!("{i}/4"));
        }
        let mut reversed: Vec<GameLog> = games.iter().rev().cloned().collect();
        sort_games(&mut reversed);
        assert_eq!(
            render(&names, &games, None),
            render(&names, &reversed, None)
        );
        assert!(short_standings(&names, &games).starts_with("Standings after 4 games: C 2.5/3"));
    }
}
