//! The Bellman identity checked on a database's files: for a board of layer
//! `n`, value = max over its moves of (beans captured − the child's value),
//! or the end's allocation where the game is over; a flagged board (its
//! value depends on endless play) lies within its bounds instead.
//!
//! The build never reads this code: it is what `engine tb verify --bellman`
//! runs on finished files, so a database built elsewhere (a batch array, a
//! download) can be checked against the rules library board by board.

use mancala_rules::games::bohnenspiel::Bean;
use mancala_rules::GameId;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::index::{layer_size, rank, unrank};
use crate::position::{edges, end_value, south_to_move};
use crate::solve::Solved;
use crate::Tablebase;

/// What a check of one layer found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    pub game: GameId,
    pub beans: usize,
    /// Boards checked: every board of the layer when `samples` was at least
    /// its size, else `samples` boards drawn at random.
    pub boards: u64,
}

impl Tablebase {
    /// Checks the identity on `samples` random boards of layer `beans` of
    /// `game` (every board when the layer has no more than that). Needs the
    /// layers below; an error names the layer file, the board and both sides
    /// of the identity.
    pub fn check_bellman(
        &self,
        game: GameId,
        beans: usize,
        samples: u64,
        seed: u64,
    ) -> Result<Checked, String> {
        let layers = (0..=beans)
            .map(|n| {
                self.layer(game, n)?
                    .ok_or_else(|| format!("{game}: layer {n} is missing (layer {beans} needs it)"))
            })
            .collect::<Result<Vec<&Solved>, String>>()?;
        let boards = if game == GameId::Kalah {
            let values: Vec<&[i8]> = layers.iter().map(|l| &l.values[..]).collect();
            crate::kalah::check::check_layer(&values, samples, seed)
        } else if game == GameId::BohnenspielHemprich {
            check_layer::<true>(&layers, samples, seed)
        } else {
            check_layer::<false>(&layers, samples, seed)
        }
        .map_err(|e| format!("{game}-{beans}.tb: {e}"))?;
        Ok(Checked {
            game,
            beans,
            boards,
        })
    }
}

/// Checks the top layer of `layers` (which holds every layer from 0 up).
fn check_layer<const H: bool>(layers: &[&Solved], samples: u64, seed: u64) -> Result<u64, String> {
    let layer = layers[layers.len() - 1];
    let n = layer.beans;
    let size = layer_size(n);
    let (mut list, mut moves) = (Vec::new(), Vec::new());
    let mut rng = SmallRng::seed_from_u64(seed);
    let every = samples >= size;
    let count = if every { size } else { samples };
    for i in 0..count {
        let r = if every { i } else { rng.random_range(0..size) };
        let board = unrank(n, r).ok_or_else(|| format!("index {r} out of range"))?;
        let pos: Bean<H> = south_to_move(&board);
        let value = i32::from(layer.values[r as usize]);
        let best = match end_value(&pos) {
            Some(end) => end,
            None => {
                edges(&pos, &mut list, &mut moves);
                list.iter()
                    .map(|e| {
                        let child = layers[n - usize::from(e.captured)];
                        i32::from(e.captured) - i32::from(child.values[rank(&e.child) as usize])
                    })
                    .max()
                    .ok_or_else(|| format!("{pos}: not over, yet no move"))?
            }
        };
        let flag = layer
            .flagged
            .binary_search_by_key(&r, |f| f.index)
            .ok()
            .map(|k| &layer.flagged[k]);
        let holds = match flag {
            None => value == best,
            Some(f) => (i32::from(f.lower)..=i32::from(f.upper)).contains(&value),
        };
        if !holds {
            return Err(match flag {
                None => format!(
                    "board {r} ({pos}) holds {value}, but its best move (or its end) gives {best}: the Bellman identity fails"
                ),
                Some(f) => format!(
                    "flagged board {r} ({pos}) holds {value}, outside its bounds {}..={}",
                    f.lower, f.upper
                ),
            });
        }
    }
    Ok(count)
}
