//! Reading a database directory: the layers are loaded on first use (whole,
//! checksum checked) and kept in memory.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mancala_rules::games::bohnenspiel::{Bean, BeanMove, Bohnenspiel, Hemprich};
use mancala_rules::position::game_id_of;
use mancala_rules::{Game, GameId, GameResult, Side};

use crate::file::{self, Kind};
use crate::index::{rank, Board};
use crate::position::{edges, relative_board, south_to_move};
use crate::solve::{Flag, Solved};

/// One layer file of the directory, loaded on demand.
struct Layer {
    path: PathBuf,
    loaded: OnceLock<Result<Solved, String>>,
}

/// A database directory: any layers of both Bohnenspiel games.
pub struct Tablebase {
    dir: PathBuf,
    layers: BTreeMap<(GameId, usize), Layer>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("layers", &self.layers.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// What the database says about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Beans on the board (the layer).
    pub beans: usize,
    /// The mover's net future gain under best play.
    pub value: i32,
    /// Every move that keeps the value (ascending); empty when the game is over.
    pub moves: Vec<BeanMove>,
    /// `Some((lower, upper))` when the value depends on how endless play is
    /// scored (a flagged board): the bounds, and `value` is the cycle ruling's.
    pub cycle: Option<(i8, i8)>,
    /// The final totals under best play (South first): the stores plus the
    /// shares of the beans on the board.
    pub scores: [u32; 2],
    pub side: Side,
}

impl Probe {
    /// The result the value gives.
    pub fn result(&self) -> GameResult {
        GameResult::from_scores(self.scores)
    }
}

impl Tablebase {
    /// Opens a directory: reads every layer file's header (the checksum is
    /// checked when a layer is loaded, or by [`Tablebase::verify`]).
    pub fn open(dir: &Path) -> Result<Tablebase, String> {
        let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut layers = BTreeMap::new();
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            if path.extension().is_none_or(|e| e != "tb") {
                continue;
            }
            let header = file::read_header(&path)?;
            if header.kind != Kind::Layer {
                return Err(format!("{}: a shard named as a layer", path.display()));
            }
            let layer = Layer {
                path,
                loaded: OnceLock::new(),
            };
            layers.insert((header.game, header.beans), layer);
        }
        Ok(Tablebase {
            dir: dir.to_owned(),
            layers,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The largest `n` with every layer `0..=n` of `game` present.
    pub fn max_beans(&self, game: GameId) -> Option<usize> {
        (0..)
            .take_while(|&n| self.layers.contains_key(&(game, n)))
            .last()
    }

    /// Layer `beans` of `game`, loaded and checked on first use (`None` if
    /// the directory has no such file).
    pub(crate) fn layer(&self, game: GameId, beans: usize) -> Result<Option<&Solved>, String> {
        let Some(layer) = self.layers.get(&(game, beans)) else {
            return Ok(None);
        };
        let loaded = layer.loaded.get_or_init(|| {
            let (read_game, solved) = file::read_layer(&layer.path)?;
            if (read_game, solved.beans) != (game, beans) {
                return Err(format!("{}: changed since opened", layer.path.display()));
            }
            Ok(solved)
        });
        loaded.as_ref().map(Some).map_err(Clone::clone)
    }

    /// Layers `0..=max_beans` of `game`, loaded and checked, as value slices
    /// (`[k]` is layer `k`): what a search probes directly.
    pub fn values(&self, game: GameId, max_beans: usize) -> Result<Vec<&[i8]>, String> {
        (0..=max_beans)
            .map(|n| {
                self.layer(game, n)?.map(|l| &l.values[..]).ok_or_else(|| {
                    format!("{}: layer {n} of {game} is missing", self.dir.display())
                })
            })
            .collect()
    }

    /// Loads (and checks) every layer of `game` up to `max_beans`.
    pub fn load(&self, game: GameId, max_beans: usize) -> Result<(), String> {
        for n in 0..=max_beans {
            self.layer(game, n)?;
        }
        Ok(())
    }

    /// Checks every file's checksum; the layers checked, in order.
    pub fn verify(&self) -> Result<Vec<(GameId, usize)>, String> {
        for (&(game, beans), _) in self.layers.iter() {
            self.layer(game, beans)?;
        }
        Ok(self.layers.keys().copied().collect())
    }

    /// The value of a board with `beans` beans seen from the mover, if its
    /// layer is present (a load error counts as absent: see [`Tablebase::load`]).
    #[inline]
    pub fn value_of(&self, game: GameId, beans: usize, board: &Board) -> Option<i8> {
        let layer = self.layer(game, beans).ok()??;
        layer.values.get(rank(board) as usize).copied()
    }

    /// The value of `pos` (mover's net future gain), if its layer is present.
    #[inline]
    pub fn value<const H: bool>(&self, pos: &Bean<H>) -> Option<i32> {
        let beans = pos.beans_on_board() as usize;
        self.value_of(Bean::<H>::ID, beans, &relative_board(pos))
            .map(i32::from)
    }

    /// Everything about `pos`: `Ok(None)` when a layer it needs is absent.
    pub fn probe<const H: bool>(&self, pos: &Bean<H>) -> Result<Option<Probe>, String> {
        let game = Bean::<H>::ID;
        let beans = pos.beans_on_board() as usize;
        let board = relative_board(pos);
        let Some(layer) = self.layer(game, beans)? else {
            return Ok(None);
        };
        let index = rank(&board);
        let value = i32::from(layer.values[index as usize]);
        let cycle = layer
            .flagged
            .binary_search_by_key(&index, |f: &Flag| f.index)
            .ok()
            .map(|i| (layer.flagged[i].lower, layer.flagged[i].upper));
        let south = south_to_move::<H>(&board);
        let (mut list, mut scratch) = (Vec::new(), Vec::new());
        edges(&south, &mut list, &mut scratch);
        let mut best = i32::MIN;
        let mut moves = Vec::new();
        for e in &list {
            let child_beans = beans - usize::from(e.captured);
            let Some(child) = self.layer(game, child_beans)? else {
                return Ok(None);
            };
            let v = i32::from(e.captured) - i32::from(child.values[rank(&e.child) as usize]);
            if v > best {
                best = v;
                moves.clear();
            }
            if v == best {
                moves.push(own_move(e.mv, pos.side_to_move()));
            }
        }
        let mover = pos.side_to_move();
        let stores = pos.stores();
        let mut scores = [0u32; 2];
        // Gains g_mover + g_other = beans and g_mover - g_other = value.
        let mine = ((beans as i32 + value) / 2) as u32;
        scores[mover.index()] = u32::from(stores[mover.index()]) + mine;
        scores[mover.opponent().index()] =
            u32::from(stores[mover.opponent().index()]) + beans as u32 - mine;
        Ok(Some(Probe {
            beans,
            value,
            moves,
            cycle,
            scores,
            side: mover,
        }))
    }

    /// Probes a position string: `Ok(None)` when the game has no database
    /// here or a layer it needs is absent.
    pub fn probe_str(&self, position: &str) -> Result<Option<Probe>, String> {
        let parse_err = |e: mancala_rules::PositionError| format!("{e}");
        match game_id_of(position).map_err(parse_err)? {
            GameId::Bohnenspiel => self.probe(&position.parse::<Bohnenspiel>().map_err(parse_err)?),
            GameId::BohnenspielHemprich => {
                self.probe(&position.parse::<Hemprich>().map_err(parse_err)?)
            }
            _ => Ok(None),
        }
    }
}

/// A move of the South-to-move view as the real mover plays it.
fn own_move(mv: BeanMove, mover: Side) -> BeanMove {
    match (mv.hole(), mover) {
        (Some(hole), Side::North) => BeanMove::sow((hole + 5) % 12 + 1).expect("a hole"),
        _ => mv,
    }
}
