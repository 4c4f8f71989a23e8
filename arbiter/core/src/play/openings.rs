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
    /// The balanced suite shipped for each game (`openings/<game>.txt` in the
    /// repository, built into the binary), used in order and cycled.
    Suite,
}

/// The shipped suites, made by `openings/generate`, keyed by game id: data,
/// not a rule, so a table rather than a `match` on the game (a test checks
/// that every game has one).
const SUITES: &[(&str, &str)] = &[
    (
        "bohnenspiel",
        include_str!("../../../../openings/bohnenspiel.txt"),
    ),
    (
        "bohnenspiel-hemprich",
        include_str!("../../../../openings/bohnenspiel-hemprich.txt"),
    ),
    ("bosh", include_str!("../../../../openings/bosh.txt")),
    ("kimasai", include_str!("../../../../openings/kimasai.txt")),
    (
        "kujifunza",
        include_str!("../../../../openings/kujifunza.txt"),
    ),
    ("kalah", include_str!("../../../../openings/kalah.txt")),
    (
        "kalah-6x6",
        include_str!("../../../../openings/kalah-6x6.txt"),
    ),
    ("oware", include_str!("../../../../openings/oware.txt")),
];

/// The text of the shipped suite of `game`; `None` if none is built in.
fn suite_text(game: GameId) -> Option<&'static str> {
    SUITES
        .iter()
        .find(|(id, _)| *id == game.as_str())
        .map(|&(_, text)| text)
}

/// The positions of the shipped suite of `game`.
pub fn suite(game: GameId) -> Result<Vec<String>, OpeningsError> {
    let text = suite_text(game)
        .ok_or_else(|| OpeningsError(format!("no opening suite is built in for {game}")))?;
    match Openings::parse(text, game) {
        Ok(Openings::List(list)) => Ok(list),
        Ok(_) => Err(OpeningsError(format!("the {game} suite is not a list"))),
        Err(e) => Err(OpeningsError(format!("the shipped {game} suite: {}", e.0))),
    }
}

/// Random openings are redrawn this often before [`Openings::check`] gives up.
const RANDOM_TRIES: usize = 64;
/// Pairs [`Openings::check`] draws to see whether random plies are usable.
const CHECKED_PAIRS: usize = 16;

/// A bad openings file; the message names the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsError(pub String);

impl std::fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningsError {}

/// The most random opening plies (`plies=N`).
pub const MAX_OPENING_PLIES: u64 = 10_000;

/// Openings as `--openings` (and a pool's `openings`) names them: none
/// (the start position), `suite`, `plies=N` or `file=PATH`, checked for
/// `game` (random plies that keep ending or deciding the game are refused).
/// The message starts with `--openings`.
pub fn parse_openings(
    spec: Option<&str>,
    game: GameId,
    seed: u64,
) -> Result<Openings, OpeningsError> {
    let openings = match spec {
        None => Openings::StartPosition,
        Some("suite") => Openings::Suite,
        Some(s) => match s.split_once('=') {
            Some(("plies", n)) => {
                let plies = match n.trim().parse::<u64>() {
                    Ok(p) if p <= MAX_OPENING_PLIES => p,
                    // why two wordings: those of every other count on the
                    // command line (a number out of range, or no number).
                    Ok(_) => {
                        return Err(OpeningsError(format!(
                            "--openings plies={n}: must be from 0 to {MAX_OPENING_PLIES}"
                        )))
                    }
                    Err(_) => {
                        return Err(OpeningsError(format!(
                            "--openings plies={n}: expected a whole number from 0 to {MAX_OPENING_PLIES}"
                        )))
                    }
                };
                Openings::Random {
                    plies: plies as u32,
                    seed,
                }
            }
            Some(("file", path)) => Openings::from_file(path.as_ref(), game)?,
            _ => {
                return Err(OpeningsError(format!(
                    "--openings {s}: expected suite, plies=N or file=PATH"
                )))
            }
        },
    };
    openings
        .check(game)
        .map_err(|e| OpeningsError(format!("--openings {}", e.0)))?;
    Ok(openings)
}

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
            if let Some(r) = g.decided() {
                return Err(bad(format!(
                    "the result of this opening is already decided ({r})"
                )));
            }
            list.push(position);
        }
        if list.is_empty() {
            return Err(OpeningsError("no openings in the file".into()));
        }
        Ok(Openings::List(list))
    }

    /// The start position of pair `pair`. A random opening that cannot be
    /// drawn (see [`Openings::check`]) falls back to the start position.
    pub fn for_pair(&self, game: GameId, pair: usize) -> String {
        match self {
            Openings::StartPosition => new_game(game).position_string(),
            Openings::List(list) => list[pair % list.len()].clone(),
            Openings::Suite => match suite(game) {
                Ok(list) if !list.is_empty() => list[pair % list.len()].clone(),
                _ => new_game(game).position_string(),
            },
            Openings::Random { plies, seed } => random_opening(game, *plies, *seed, pair)
                .unwrap_or_else(|| new_game(game).position_string()),
        }
    }

    /// Refuses openings that would not do what they say: random plies that
    /// keep ending (or deciding) the game, so that pairs would silently
    /// start from the start position, and a suite that does not load.
    pub fn check(&self, game: GameId) -> Result<(), OpeningsError> {
        match self {
            Openings::Random { plies, seed } => {
                for pair in 0..CHECKED_PAIRS {
                    if random_opening(game, *plies, *seed, pair).is_none() {
                        return Err(OpeningsError(format!(
                            "plies={plies}: {RANDOM_TRIES} random lines of {plies} plies all \
                             end the {game} game or decide its result; give fewer plies"
                        )));
                    }
                }
                Ok(())
            }
            Openings::Suite => suite(game).map(|_| ()),
            Openings::StartPosition | Openings::List(_) => Ok(()),
        }
    }

    /// The list shuffled with `seed` (`--openings-order random`) and started
    /// at its `start`-th entry (1-based, `--openings-start`); other openings
    /// unchanged.
    pub fn arranged(self, random: bool, start: Option<u64>, seed: u64) -> Openings {
        let Openings::List(mut list) = self else {
            return self;
        };
        if random {
            use rand::seq::SliceRandom;
            list.shuffle(&mut SmallRng::seed_from_u64(seed));
        }
        if let Some(start) = start {
            let k = (start.saturating_sub(1) as usize) % list.len().max(1);
            list.rotate_left(k);
        }
        Openings::List(list)
    }
}

/// `plies` random legal plies for pair `pair`; `None` when every try ended
/// the game or decided its result.
fn random_opening(game: GameId, plies: u32, seed: u64, pair: usize) -> Option<String> {
    // why: each pair draws from its own stream, so the opening of pair k does
    // not depend on how many pairs came before.
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair as u64);
    for _ in 0..RANDOM_TRIES {
        let mut g = new_game(game);
        for _ in 0..plies {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.random_range(0..moves.len())];
            if g.play(mv).is_err() {
                break;
            }
        }
        if g.outcome().is_none() && g.decided().is_none() {
            return Some(g.position_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_checked() {
        let e = parse_openings(Some("plies=300"), GameId::Bohnenspiel, 1)
            .unwrap_err()
            .0;
        assert!(e.starts_with("--openings plies=300:"), "{e}");
        assert_eq!(
            parse_openings(Some("suite"), GameId::Kujifunza, 1).unwrap(),
            Openings::Suite
        );
        assert!(parse_openings(Some("book"), GameId::Bosh, 1)
            .unwrap_err()
            .0
            .contains("expected suite, plies=N or file=PATH"));
    }

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

    #[test]
    fn random_plies_that_end_or_decide_the_game_are_refused() {
        // Bohnenspiel random games last well under 200 plies.
        let e = Openings::Random {
            plies: 200,
            seed: 1,
        }
        .check(GameId::Bohnenspiel)
        .unwrap_err();
        assert!(
            e.0.contains("plies=200") && e.0.contains("give fewer plies"),
            "{e}"
        );
        Openings::Random { plies: 4, seed: 1 }
            .check(GameId::Bohnenspiel)
            .unwrap();
        // Every opening drawn is open and undecided.
        let o = Openings::Random { plies: 30, seed: 3 };
        if o.check(GameId::Bohnenspiel).is_ok() {
            for k in 0..8 {
                let g = game_from_position(&o.for_pair(GameId::Bohnenspiel, k)).unwrap();
                assert!(g.outcome().is_none() && g.decided().is_none());
            }
        }
        let e = Openings::parse(
            "bohnenspiel 6,6,6,6,6,0,0,0,0,0,2,3 N 37/0\n",
            GameId::Bohnenspiel,
        )
        .unwrap_err();
        assert!(e.0.contains("already decided (1-0)"), "{e}");
    }

    #[test]
    fn shipped_suites_load_for_every_game() {
        for game in GameId::ALL {
            let list = suite(game).unwrap();
            assert!(list.len() >= 16, "{game}: {} positions", list.len());
            Openings::Suite.check(game).unwrap();
            assert_eq!(Openings::Suite.for_pair(game, 1), list[1]);
            assert_eq!(Openings::Suite.for_pair(game, list.len()), list[0]);
        }
    }

    #[test]
    fn every_built_in_suite_belongs_to_one_game_id() {
        let mut ids: Vec<GameId> = SUITES.iter().map(|(id, _)| id.parse().unwrap()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), SUITES.len(), "a game id listed twice");
        assert_eq!(ids, GameId::ALL.to_vec());
    }

    #[test]
    fn order_and_start() {
        let list: Vec<String> = (1..=5).map(|k| format!("p{k}")).collect();
        let o = Openings::List(list.clone());
        assert_eq!(o.clone().arranged(false, None, 1), o);
        assert_eq!(
            o.clone().arranged(false, Some(3), 1),
            Openings::List(vec![
                "p3".into(),
                "p4".into(),
                "p5".into(),
                "p1".into(),
                "p2".into()
            ])
        );
        let Openings::List(shuffled) = o.clone().arranged(true, None, 9) else {
            panic!()
        };
        assert_ne!(shuffled, list);
        let mut sorted = shuffled.clone();
        sorted.sort();
        assert_eq!(sorted, list);
        assert_eq!(o.clone().arranged(true, None, 9), Openings::List(shuffled));
        assert_eq!(Openings::Suite.arranged(true, Some(2), 1), Openings::Suite);
    }
}
