//! Openings: where the games of a pair start. Both games of a pair use the
//! same opening, with colours swapped, so the pair is fair.

use std::path::Path;

use mancala_rules::{game_from_position, new_game, normalize_position, GameId};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// How the start positions are chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the game's start position.
    StartPosition,
    /// `plies` uniformly random legal moves from the start, reproducible from
    /// `seed` (pair `k` always gets the same opening for the same seed).
    Random { plies: u32, seed: u64 },
    /// Position strings, used in order and cycled.
    List(Vec<String>),
}

/// A bad openings file; the message names the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsError(pub String);

impl std::fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningsError {}

impl Openings {
    /// Reads a file with one opening per line: a position string of `game`,
    /// or a line of moves from its start position (`3 9 4`). Blank lines and
    /// lines starting with `#` are skipped.
    pub fn from_file(path: &Path, game: GameId) -> Result<Openings, OpeningsError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            OpeningsError(format!("cannot read openings file {}: {e}", path.display()))
        })?;
        Openings::parse(&text, game)
            .map_err(|e| OpeningsError(format!("{}: {}", path.display(), e.0)))
    }

    pub fn parse(text: &str, game: GameId) -> Result<Openings, OpeningsError> {
        let mut list = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |e: String| OpeningsError(format!("line {}: {e}", n + 1));
            let first = line.split(' ').next().unwrap_or_default();
            let position = if first.parse::<GameId>().is_ok() {
                let p = normalize_position(line).map_err(|e| bad(e.to_string()))?;
                if !p.starts_with(&format!("{game} ")) {
                    return Err(bad(format!("position is not a {game} position")));
                }
                p
            } else {
                let mut g = new_game(game);
                for mv in line.split_whitespace() {
                    g.play(mv).map_err(|e| bad(format!("move {mv}: {e}")))?;
                }
                g.position_string()
            };
            let g = game_from_position(&position).map_err(|e| bad(e.to_string()))?;
            if g.outcome().is_some() {
                return Err(bad("the game is already over in this opening".into()));
            }
            list.push(position);
        }
        if list.is_empty() {
            return Err(OpeningsError("no openings in the file".into()));
        }
        Ok(Openings::List(list))
    }

    /// The start position of pair `pair`.
    pub fn for_pair(&self, game: GameId, pair: usize) -> String {
        match self {
            Openings::StartPosition => new_game(game).position_string(),
            Openings::List(list) => list[pair % list.len()].clone(),
            Openings::Random { plies, seed } => {
                // why: each pair draws from its own stream, so the opening of
                // pair k does not depend on how many pairs came before.
                let mut rng =
                    SmallRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair as u64);
                for _ in 0..64 {
                    let mut g = new_game(game);
                    for _ in 0..*plies {
                        let moves = g.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        let mv = &moves[rng.random_range(0..moves.len())];
                        if g.play(mv).is_err() {
                            break;
                        }
                    }
                    if g.outcome().is_none() {
                        return g.position_string();
                    }
                }
                new_game(game).position_string()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_reproducible_per_pair() {
        let o = Openings::Random { plies: 4, seed: 7 };
        let a: Vec<String> = (0..5).map(|k| o.for_pair(GameId::Bohnenspiel, k)).collect();
        let b: Vec<String> = (0..5).map(|k| o.for_pair(GameId::Bohnenspiel, k)).collect();
        assert_eq!(a, b);
        assert!(
            a.iter().any(|p| p != &a[0]),
            "different pairs get different openings"
        );
        assert_ne!(a[0], new_game(GameId::Bohnenspiel).position_string());
    }

    #[test]
    fn file_lines_are_positions_or_moves() {
        let text = "# openings\nbohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 N 0/0\n\n1 7\n";
        let Openings::List(list) = Openings::parse(text, GameId::Bohnenspiel).unwrap() else {
            panic!()
        };
        assert_eq!(list.len(), 2);
        assert!(list[0].ends_with(" N 0/0"));
        assert!(list[1].ends_with(" S 0/0"));
        let e = Openings::parse("1 99\n", GameId::Bohnenspiel).unwrap_err();
        assert!(e.0.contains("line 1") && e.0.contains("move 99"), "{e}");
        let e =
            Openings::parse("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1\n", GameId::Bohnenspiel).unwrap_err();
        assert!(e.0.contains("not a bohnenspiel position"), "{e}");
        assert!(Openings::parse("\n# nothing\n", GameId::Bosh).is_err());
    }
}
