//! Test vectors for engine authors in any language: for positions of every
//! game, the legal moves, the position after each of them, the game status
//! and perft counts — data that a C, Java or Go move generator can be checked
//! against without Rust.
//!
//! `cargo run -p mancala-rules --example vectors` writes one file per game id
//! to `tests/vectors/<id>.json`; the test `rules/tests/it/vectors.rs` rebuilds
//! them and fails when a checked-in file differs. Every id in [`GameId::ALL`]
//! gets a file, so a new game needs no change here.
//!
//! The positions are reached from the start by fixed walks (no random numbers:
//! the files must come out the same on every machine). They are positions
//! only: the history rules of [`crate::GameRecord`] (repetition, Bosh's round
//! starts) do not apply, as in [`crate::perft`].

use serde::Serialize;

use crate::{with_game, Game, GameId, Outcome, Side};

/// The command that writes the files (named in each file).
pub const COMMAND: &str = "cargo run -p mancala-rules --example vectors";

/// Walks from the start (each a different choice of move), and the plies of
/// each walk whose position is kept.
const WALKS: u64 = 3;
const KEPT_PLIES: [u32; 5] = [0, 3, 8, 17, 30];
/// A walk stops here at the latest (positions only can cycle for ever).
const MAX_WALK: u32 = 400;
/// Perft depths are tried from 1 up to this, while the count stays below
/// [`PERFT_NODES`] (the files stay small and the test fast), and never past
/// a depth with no leaf.
const MAX_PERFT_DEPTH: u32 = 4;
const PERFT_NODES: u64 = 200_000;

/// One game's vectors (the file `tests/vectors/<game>.json`).
#[derive(Serialize, Debug)]
pub struct GameVectors {
    pub game: &'static str,
    /// What the file holds, for someone who opens it.
    pub about: &'static str,
    pub regenerate: &'static str,
    pub positions: Vec<PositionVector>,
}

/// One position: what the rules say about it.
#[derive(Serialize, Debug)]
pub struct PositionVector {
    /// The position string (protocol-spec.md, "Position strings").
    pub position: String,
    pub to_move: Side,
    /// `null` while the game goes on; else the result the position decides.
    pub status: Option<Status>,
    /// Every legal move in canonical notation, in the library's order; empty
    /// in a finished position.
    pub legal_moves: Vec<String>,
    /// The position after each legal move, in the same order.
    pub after: Vec<MoveVector>,
    /// `perft[d - 1]`: leaf count at depth `d`, from depth 1.
    pub perft: Vec<u64>,
}

#[derive(Serialize, Debug)]
pub struct MoveVector {
    #[serde(rename = "move")]
    pub mv: String,
    pub position: String,
}

/// A finished position's result: `1-0`, `0-1` or `1/2-1/2`, the reason, and
/// the final scores where the game counts seeds.
#[derive(Serialize, Debug)]
pub struct Status {
    pub result: &'static str,
    pub reason: &'static str,
    pub scores: Option<[u32; 2]>,
}

impl From<Outcome> for Status {
    fn from(o: Outcome) -> Status {
        Status {
            result: o.result.as_pgn(),
            reason: o.reason.describe(),
            scores: o.scores,
        }
    }
}

/// The vectors of every game the library knows, one entry per id.
pub fn all() -> Vec<GameVectors> {
    GameId::ALL.into_iter().map(for_game).collect()
}

/// The vectors of one game.
pub fn for_game(id: GameId) -> GameVectors {
    let positions = with_game!(id, G => walked_positions::<G>()
        .iter()
        .map(describe)
        .collect());
    GameVectors {
        game: id.as_str(),
        about: "positions -> legal moves, position + move -> position, perft; see protocol-spec.md (Test vectors)",
        regenerate: COMMAND,
        positions,
    }
}

/// The kept positions of every walk, each once, in the order first met; the
/// last position of a walk that reached a game end is kept too.
fn walked_positions<G: Game>() -> Vec<G> {
    let mut kept: Vec<G> = Vec::new();
    let mut keep = |pos: &G| {
        let text = pos.to_string();
        if !kept.iter().any(|k| k.to_string() == text) {
            kept.push(pos.clone());
        }
    };
    for walk in 0..WALKS {
        let mut pos = G::start();
        for ply in 0..MAX_WALK {
            if KEPT_PLIES.contains(&ply) {
                keep(&pos);
            }
            let moves = pos.legal_move_list();
            if moves.is_empty() {
                keep(&pos);
                break;
            }
            // why: a fixed, well-spread choice per walk and ply instead of a
            // random generator, so that the files never depend on one.
            let pick = (walk * 7 + u64::from(ply) * (walk * 2 + 3) + u64::from(ply / 5)) as usize;
            pos.play(moves[pick % moves.len()]);
        }
    }
    kept
}

fn describe<G: Game>(pos: &G) -> PositionVector {
    let status = pos.status();
    // A finished position has no legal move (as in perft).
    let moves = pos.legal_move_list();
    let mut perft = Vec::new();
    for depth in 1..=MAX_PERFT_DEPTH {
        let n = crate::perft::perft(pos, depth);
        perft.push(n);
        if n == 0 || n >= PERFT_NODES {
            break;
        }
    }
    PositionVector {
        position: pos.to_string(),
        to_move: pos.side_to_move(),
        status: status.map(Status::from),
        legal_moves: moves.iter().map(ToString::to_string).collect(),
        after: moves
            .iter()
            .map(|&mv| MoveVector {
                mv: mv.to_string(),
                position: pos.after(mv).to_string(),
            })
            .collect(),
        perft,
    }
}
