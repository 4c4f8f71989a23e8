//! Match play (Partie): games in a row until one player has 100 beans in all.
//!
//! The rules page: "games in a row, South opening the first and the opener
//! alternating, bean totals summed; the first to reach 100 wins the Partie. If
//! both pass 100 after the same game the higher total wins; equal totals draw."
//!
//! Totals belong to the two *players*, not to the sides: the players swap sides
//! every game (the opener always sits South), so a game's South score goes to
//! whoever opened it.
//!
//! ```
//! use mancala_rules::games::bohnenspiel::{Partie, PartieResult, Player};
//! use mancala_rules::Side;
//!
//! let mut partie = Partie::standard();
//! assert_eq!(partie.opener_of_next_game(), Player::First);
//! partie.record_game([40, 32]).unwrap(); // First sat South and took 40
//! assert_eq!(partie.player_on(Side::South), Player::Second);
//! partie.record_game([30, 42]).unwrap(); // Second sat South; First took 42 as North
//! assert_eq!(partie.total(Player::First), 82);
//! assert_eq!(partie.total(Player::Second), 62);
//! assert_eq!(partie.result(), None);
//! assert_eq!(partie.record_game([36, 36]).unwrap(), Some(PartieResult::Won(Player::First)));
//! ```

use std::fmt;

use crate::Side;

/// A participant of a Partie. `First` opens the first game (sits South in it);
/// the players then swap sides every game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: the index into [`Partie::totals`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished Partie ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PartieResult {
    Won(Player),
    /// Both reached the target after the same game with equal totals.
    Drawn,
}

/// [`Partie::record_game`] after the Partie was already decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PartieOver;

impl fmt::Display for PartieOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the Partie is already decided")
    }
}

impl std::error::Error for PartieOver {}

/// A Partie in progress or decided.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Partie {
    target: u32,
    /// Indexed by [`Player::index`].
    totals: [u32; 2],
    games: u32,
    result: Option<PartieResult>,
}

impl Partie {
    /// The target of the rules page.
    pub const STANDARD_TARGET: u32 = 100;

    /// A Partie won by the first player to reach `target` beans. (A target of 0
    /// is reached by both players after the first game, which then decides.)
    pub fn new(target: u32) -> Partie {
        Partie {
            target,
            totals: [0; 2],
            games: 0,
            result: None,
        }
    }

    /// A Partie to 100 beans.
    pub fn standard() -> Partie {
        Partie::new(Partie::STANDARD_TARGET)
    }

    pub fn target(&self) -> u32 {
        self.target
    }

    pub fn games_played(&self) -> u32 {
        self.games
    }

    /// Bean totals so far, indexed by [`Player::index`].
    pub fn totals(&self) -> [u32; 2] {
        self.totals
    }

    pub fn total(&self, player: Player) -> u32 {
        self.totals[player.index()]
    }

    /// Who opens (sits South in) the next game: `First` in games 1, 3, 5...
    pub fn opener_of_next_game(&self) -> Player {
        if self.games & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Who sits on `side` in the next game.
    pub fn player_on(&self, side: Side) -> Player {
        match side {
            Side::South => self.opener_of_next_game(),
            Side::North => self.opener_of_next_game().other(),
        }
    }

    /// Records the next game's final bean totals, indexed by side (South, the
    /// opener, first), as in [`crate::Outcome::scores`]. Returns the result if
    /// this game decided the Partie.
    pub fn record_game(
        &mut self,
        scores_by_side: [u32; 2],
    ) -> Result<Option<PartieResult>, PartieOver> {
        if self.result.is_some() {
            return Err(PartieOver);
        }
        for side in Side::BOTH {
            let player = self.player_on(side).index();
            self.totals[player] = self.totals[player].saturating_add(scores_by_side[side.index()]);
        }
        self.games += 1;
        let [first, second] = self.totals;
        self.result = match (first >= self.target, second >= self.target) {
            (false, false) => None,
            (true, false) => Some(PartieResult::Won(Player::First)),
            (false, true) => Some(PartieResult::Won(Player::Second)),
            (true, true) => Some(match first.cmp(&second) {
                std::cmp::Ordering::Greater => PartieResult::Won(Player::First),
                std::cmp::Ordering::Less => PartieResult::Won(Player::Second),
                std::cmp::Ordering::Equal => PartieResult::Drawn,
            }),
        };
        Ok(self.result)
    }

    /// The result once the Partie is decided.
    pub fn result(&self) -> Option<PartieResult> {
        self.result
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opener_alternates_and_scores_follow_players() {
        let mut p = Partie::standard();
        assert_eq!(p.opener_of_next_game(), Player::First);
        assert_eq!(p.player_on(Side::North), Player::Second);
        assert_eq!(p.record_game([50, 22]), Ok(None));
        assert_eq!(p.opener_of_next_game(), Player::Second);
        assert_eq!(p.player_on(Side::South), Player::Second);
        assert_eq!(p.player_on(Side::North), Player::First);
        // Second opens: South's 10 is Second's, North's 62 is First's.
        assert_eq!(
            p.record_game([10, 62]),
            Ok(Some(PartieResult::Won(Player::First)))
        );
        assert_eq!(p.totals(), [112, 32]);
        assert_eq!(p.games_played(), 2);
        assert_eq!(p.result(), Some(PartieResult::Won(Player::First)));
        assert!(p.is_over());
        assert_eq!(p.record_game([36, 36]), Err(PartieOver));
        assert_eq!(p.totals(), [112, 32]);
    }

    #[test]
    fn exactly_reaching_the_target_wins() {
        let mut p = Partie::new(100);
        p.record_game([36, 36]).unwrap(); // 36/36
        p.record_game([8, 64]).unwrap(); // First (North) 100, Second 44
        assert_eq!(p.result(), Some(PartieResult::Won(Player::First)));
    }

    #[test]
    fn second_player_can_win() {
        let mut p = Partie::standard();
        p.record_game([20, 52]).unwrap(); // Second 52
        p.record_game([50, 22]).unwrap(); // Second opens: Second 102
        assert_eq!(p.result(), Some(PartieResult::Won(Player::Second)));
        assert_eq!(p.totals(), [42, 102]);
    }

    #[test]
    fn both_passing_after_the_same_game() {
        let mut p = Partie::standard();
        p.record_game([36, 36]).unwrap(); // 36/36
        p.record_game([36, 36]).unwrap(); // 72/72
        assert_eq!(p.result(), None);
        // Game 3, First opens: 38 to First, 34 to Second: 110 vs 106.
        assert_eq!(
            p.record_game([38, 34]),
            Ok(Some(PartieResult::Won(Player::First)))
        );

        let mut p = Partie::standard();
        p.record_game([36, 36]).unwrap();
        p.record_game([36, 36]).unwrap();
        // 72+30 = 102 vs 72+42 = 114: the higher total wins, not the first listed.
        assert_eq!(
            p.record_game([30, 42]),
            Ok(Some(PartieResult::Won(Player::Second)))
        );

        let mut p = Partie::standard();
        p.record_game([36, 36]).unwrap();
        p.record_game([36, 36]).unwrap();
        assert_eq!(p.record_game([36, 36]), Ok(Some(PartieResult::Drawn)));
        assert_eq!(p.totals(), [108, 108]);
    }

    #[test]
    fn zero_target_is_decided_by_the_first_game() {
        let mut p = Partie::new(0);
        assert_eq!(p.result(), None);
        assert_eq!(
            p.record_game([30, 42]),
            Ok(Some(PartieResult::Won(Player::Second)))
        );
    }
}
