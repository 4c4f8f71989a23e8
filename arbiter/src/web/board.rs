//! What the page draws for a position: the holes in screen order (South at
//! the bottom, as in `docs/rules/*.md`), their seed counts, and the extras a
//! game has (Bohnenspiel stores, Bosh reserves and round). This is layout
//! only: which moves are legal and what a move does is always the rules
//! library's answer, never worked out here or in the page.

use mancala_rules::{normalize_position, GameId, PositionError};
use serde::Serialize;

/// One hole on screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hole {
    /// The hole's number in the game's notation.
    pub hole: u32,
    /// The seed count, or `x` for a closed Bosh hole.
    pub seeds: String,
}

/// A position laid out for the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub game: String,
    /// The canonical position string.
    pub position: String,
    /// Rows top to bottom (North's rows first).
    pub rows: Vec<Vec<Hole>>,
    /// `south` or `north`.
    pub to_move: &'static str,
    /// Bohnenspiel stores or Bosh reserves: (South, North).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stores: Option<[u32; 2]>,
    /// What `stores` are called in this game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stores_label: Option<&'static str>,
    /// Bosh: the round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
}

/// The hole numbers of each row, top to bottom, as South sees the board.
fn layout(game: GameId) -> Vec<Vec<u32>> {
    let run = |from: u32, to: u32| -> Vec<u32> {
        if from <= to {
            (from..=to).collect()
        } else {
            (to..=from).rev().collect()
        }
    };
    match game {
        GameId::Bohnenspiel | GameId::BohnenspielHemprich => vec![run(12, 7), run(1, 6)],
        GameId::Bosh => vec![run(10, 6), run(1, 5)],
        GameId::Kimasai => vec![run(36, 25), run(37, 48), run(24, 13), run(1, 12)],
        GameId::Kujifunza => vec![run(24, 17), run(25, 32), run(16, 9), run(1, 8)],
    }
}

/// Lays out a position string (checked and made canonical by the rules first).
pub fn view(position: &str) -> Result<BoardView, PositionError> {
    lay_out(normalize_position(position)?)
}

/// Lays out a position string the rules library wrote itself (its
/// `position_string`, canonical already): no second parse. A game sends one
/// every ply, so this is on the server's hot path.
pub fn lay_out(canonical: String) -> Result<BoardView, PositionError> {
    let fields: Vec<&str> = canonical.split_whitespace().collect();
    // A canonical string always has these fields (game, holes, side, …);
    // `get` keeps a surprise from the rules library a plain error, not a panic.
    let field = |i: usize| fields.get(i).copied().unwrap_or_default();
    let game: GameId = field(0).parse()?;
    let seeds: Vec<&str> = field(1).split(',').collect();
    let rows = layout(game)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|hole| Hole {
                    hole,
                    seeds: seeds
                        .get(hole as usize - 1)
                        .copied()
                        .unwrap_or("?")
                        .to_owned(),
                })
                .collect()
        })
        .collect();
    let to_move = if field(2) == "N" { "north" } else { "south" };
    let pair = |s: &str| -> Option<[u32; 2]> {
        let (a, b) = s.split_once('/')?;
        Some([a.parse().ok()?, b.parse().ok()?])
    };
    let (stores, stores_label, round) = match game {
        GameId::Bohnenspiel | GameId::BohnenspielHemprich => (pair(field(3)), Some("store"), None),
        GameId::Bosh => (pair(field(3)), Some("reserve"), field(4).parse().ok()),
        GameId::Kimasai | GameId::Kujifunza => (None, None, None),
    };
    Ok(BoardView {
        game: game.to_string(),
        position: canonical,
        rows,
        to_move,
        stores,
        stores_label,
        round,
    })
}

/// The hole a move starts from (every game writes it first); `None` for
/// Hemprich's `pass`.
pub fn move_hole(mv: &str) -> Option<u32> {
    let digits: String = mv.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::start_position;

    #[test]
    fn every_game_lays_out_each_hole_once() {
        for id in GameId::ALL {
            let v = view(&start_position(id)).expect("start position lays out");
            let mut holes: Vec<u32> = v.rows.iter().flatten().map(|h| h.hole).collect();
            let n = holes.len() as u32;
            holes.sort_unstable();
            assert_eq!(holes, (1..=n).collect::<Vec<_>>(), "{id}");
            assert_eq!(v.to_move, "south");
        }
    }

    #[test]
    fn bohnenspiel_has_north_on_top_and_stores() {
        let v = view("bohnenspiel 1,2,3,4,5,6,7,8,9,10,11,1 N 3/2").expect("valid");
        assert_eq!(
            v.rows[0][0],
            Hole {
                hole: 12,
                seeds: "1".into()
            }
        );
        assert_eq!(
            v.rows[1][5],
            Hole {
                hole: 6,
                seeds: "6".into()
            }
        );
        assert_eq!(v.stores, Some([3, 2]));
        assert_eq!(v.to_move, "north");
    }

    #[test]
    fn bosh_shows_closed_holes_reserves_and_round() {
        let v = view("bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2").expect("valid");
        assert_eq!(
            v.rows[1][4],
            Hole {
                hole: 5,
                seeds: "x".into()
            }
        );
        assert_eq!(v.stores, Some([3, 1]));
        assert_eq!(v.round, Some(2));
    }

    #[test]
    fn a_bad_position_is_an_error_naming_the_field() {
        let e = view("bohnenspiel 6,6 S 0/0").expect_err("too few pits");
        assert!(
            e.to_string().contains("pit") || e.to_string().contains("hole"),
            "{e}"
        );
        assert!(view("chess startpos").is_err());
    }

    #[test]
    fn moves_start_at_their_hole() {
        assert_eq!(move_hole("14+-+"), Some(14));
        assert_eq!(move_hole("3"), Some(3));
        assert_eq!(move_hole("pass"), None);
    }
}
