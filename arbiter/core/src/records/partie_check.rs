//! The Partie tags of a log, checked against the rules' bean count
//! ([`mancala_rules::games::bohnenspiel::Partie`]): the games of one Partie
//! (same event and round number before the dot) are numbered 1, 2, 3 … in
//! file order (a log that starts inside a Partie is an excerpt, not checked), the two engines change seats every game, and each game's
//! `totals` are the engines' bean totals after the games before it (a game
//! without final seed counts — adjudicated — counts 36–36, as the arbiter
//! plays it).

use std::collections::{BTreeMap, BTreeSet};

use mancala_rules::games::bohnenspiel::Partie;
use mancala_rules::Side;

use crate::records::log::GameLog;

/// A Partie tag that does not stand up: the game's number (1-based, file
/// order) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartieError {
    pub game: usize,
    pub detail: String,
}

impl std::fmt::Display for PartieError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: {}", self.game, self.detail)
    }
}

impl std::error::Error for PartieError {}

/// One Partie being replayed: the rules' count and the engines' names.
struct Open {
    partie: Partie,
    /// The engine that opened game 1, and the other one.
    players: [String; 2],
}

/// Checks every Partie of `games` (games without Partie tags are skipped).
pub fn check(games: &[GameLog]) -> Result<(), PartieError> {
    let mut open: BTreeMap<(&str, &str), Open> = BTreeMap::new();
    let mut excerpts: BTreeSet<(&str, &str)> = BTreeSet::new();
    for (i, g) in games.iter().enumerate() {
        let Some(info) = g.partie else { continue };
        let game = i + 1;
        let bad = |detail: String| PartieError { game, detail };
        let key = (g.event.as_str(), g.round.split('.').next().unwrap_or(""));
        if info.index == 1 {
            if excerpts.contains(&key) {
                return Err(bad(format!(
                    "Partie game 1 of round {} after later games of it",
                    key.1
                )));
            }
            open.insert(
                key,
                Open {
                    // why no target: the totals do not depend on it, and the
                    // log does not record it.
                    partie: Partie::new(u32::MAX),
                    players: [g.south.clone(), g.north.clone()],
                },
            );
        }
        let Some(p) = open.get_mut(&key) else {
            // An excerpt (the log starts inside the Partie): nothing to check
            // it against, but its game 1 must not follow.
            excerpts.insert(key);
            continue;
        };
        let expected = p.partie.games_played() + 1;
        if info.index != expected {
            return Err(bad(format!(
                "Partie game {} of round {}, expected game {expected}",
                info.index, key.1
            )));
        }
        let name = |side: Side| &p.players[p.partie.player_on(side).index()];
        let (south, north) = (name(Side::South), name(Side::North));
        if (&g.south, &g.north) != (south, north) {
            return Err(bad(format!(
                "Partie game {}: {} vs {}, but the seats change every game: {south} vs {north}",
                info.index, g.south, g.north
            )));
        }
        let totals = [Side::South, Side::North].map(|s| p.partie.total(p.partie.player_on(s)));
        if let Some(logged) = info.totals {
            if logged != totals {
                return Err(bad(format!(
                    "Partie game {}: totals {}/{} before it, but the games before make {}/{}",
                    info.index, logged[0], logged[1], totals[0], totals[1]
                )));
            }
        }
        // A decided Partie is never recorded again; the target is never reached.
        let _ = p.partie.record_game(g.scores.unwrap_or([36, 36]));
    }
    Ok(())
}
