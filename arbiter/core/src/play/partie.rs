//! Bohnenspiel match play (Partie) as the arbiter runs it: games in a row
//! between the same two engines, the players changing seats every game (the
//! opener always sits South), bean totals summed per engine, until one
//! reaches the target (`--partie 100`). The rules library's
//! [`Partie`](mancala_rules::games::bohnenspiel::Partie) keeps the score.
//!
//! Rulings for what the rules page cannot know about: an engine that forfeits
//! a game of a Partie (illegal move, time, crash …) loses the whole Partie;
//! a game adjudicated by the ply limit (no bean totals) counts 36–36.

use mancala_rules::games::bohnenspiel::{Partie, PartieResult, Player};
use mancala_rules::{GameResult, Side};

use crate::play::game::Played;
use crate::records::log::{PartieInfo, Termination};

/// One game of a Partie, with the engines' seats in it.
#[derive(Clone, Debug)]
pub struct PartieGame {
    /// Engine indices of South and North in this game.
    pub south: usize,
    pub north: usize,
    pub played: Played,
    pub info: PartieInfo,
}

/// Keeps a Partie between engine `first` (South in game 1) and `second`.
pub struct PartieRun {
    partie: Partie,
    first: usize,
    second: usize,
    pub games: Vec<PartieGame>,
}

/// What the scheduler does next.
pub enum Next {
    /// Play a game with these engines as South and North.
    Play { south: usize, north: usize },
    /// The Partie is over: its result from `first`'s point of view (as if
    /// `first` were South) and why.
    Done(GameResult, Termination),
}

impl PartieRun {
    pub fn new(target: u32, first: usize, second: usize) -> PartieRun {
        PartieRun {
            partie: Partie::new(target),
            first,
            second,
            games: Vec::new(),
        }
    }

    fn engine(&self, player: Player) -> usize {
        match player {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }

    /// The seats of the next game.
    pub fn next_seats(&self) -> (usize, usize) {
        (
            self.engine(self.partie.player_on(Side::South)),
            self.engine(self.partie.player_on(Side::North)),
        )
    }

    /// Records a finished game and says what comes next.
    pub fn record(&mut self, played: Played) -> Next {
        let (south, north) = self.next_seats();
        let info = PartieInfo {
            index: self.partie.games_played() + 1,
            totals: Some(self.player_totals_by_seat()),
        };
        let forfeit = played
            .termination
            .offender()
            .map(|side| (side, played.termination.clone()));
        let scores = played.scores.unwrap_or([36, 36]);
        self.games.push(PartieGame {
            south,
            north,
            played,
            info,
        });
        if let Some((side, termination)) = forfeit {
            let loser = self.partie.player_on(side);
            return Next::Done(
                result_for_first(PartieResult::Won(loser.other())),
                termination,
            );
        }
        match self.partie.record_game(scores) {
            Ok(Some(result)) => Next::Done(result_for_first(result), self.summary()),
            Ok(None) => {
                let (south, north) = self.next_seats();
                Next::Play { south, north }
            }
            // Cannot happen: a decided Partie is never recorded again.
            Err(_) => Next::Done(GameResult::Draw, self.summary()),
        }
    }

    /// Totals before the next game, indexed by the seats of the next game.
    fn player_totals_by_seat(&self) -> [u32; 2] {
        [
            self.partie.total(self.partie.player_on(Side::South)),
            self.partie.total(self.partie.player_on(Side::North)),
        ]
    }

    fn summary(&self) -> Termination {
        let [a, b] = self.partie.totals();
        Termination::Rules {
            detail: format!(
                "partie to {}: {a}-{b} after {} games",
                self.partie.target(),
                self.partie.games_played()
            ),
        }
    }
}

fn result_for_first(result: PartieResult) -> GameResult {
    match result {
        PartieResult::Won(Player::First) => GameResult::SouthWins,
        PartieResult::Won(Player::Second) => GameResult::NorthWins,
        PartieResult::Drawn => GameResult::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::EndReason;

    fn game(scores: [u32; 2]) -> Played {
        Played {
            result: GameResult::from_scores(scores),
            termination: Termination::rules(EndReason::NoSeedsToMove),
            moves: Vec::new(),
            scores: Some(scores),
        }
    }

    #[test]
    fn seats_alternate_and_totals_follow_the_players() {
        let mut p = PartieRun::new(100, 7, 9);
        assert_eq!(p.next_seats(), (7, 9));
        assert!(matches!(
            p.record(game([40, 32])),
            Next::Play { south: 9, north: 7 }
        ));
        assert!(matches!(
            p.record(game([30, 42])),
            Next::Play { south: 7, north: 9 }
        ));
        // First (engine 7) now has 82, Second 62; 36 more gives First 118.
        match p.record(game([36, 36])) {
            Next::Done(r, t) => {
                assert_eq!(r, GameResult::SouthWins);
                assert!(t.detail().contains("118-98"), "{t}");
            }
            Next::Play { .. } => panic!("the partie is decided"),
        }
        assert_eq!(p.games.len(), 3);
        assert_eq!(
            p.games[1].info.totals,
            Some([32, 40]),
            "engine 9 (South in game 2) had 32, engine 7 had 40"
        );
        assert_eq!(p.games[1].info.index, 2);
    }

    #[test]
    fn a_forfeit_loses_the_partie() {
        let mut p = PartieRun::new(100, 0, 1);
        p.record(game([40, 32]));
        let forfeit = Played {
            result: GameResult::NorthWins,
            termination: Termination::TimeForfeit {
                side: Side::South,
                detail: String::new(),
            },
            moves: Vec::new(),
            scores: None,
        };
        // Game 2: engine 1 sits South and forfeits, so engine 0 (First) wins.
        match p.record(forfeit) {
            Next::Done(r, t) => {
                assert_eq!(r, GameResult::SouthWins);
                assert_eq!(t.kind(), "time_forfeit");
            }
            Next::Play { .. } => panic!("a forfeit ends the partie"),
        }
    }
}
