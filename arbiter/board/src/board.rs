//! What the page draws for a position: the holes in screen order (South at
//! the bottom, as in `docs/rules/*.md`), their seed counts, and the extras a
//! game has (Bohnenspiel stores, Bosh reserves and round). This is layout
//! only: which moves are legal and what a move does is always the rules
//! library's answer, never worked out here or in the page.

use mancala_rules::{normalize_position, Field, GameId, PositionError};
use serde::Serialize;

/// One hole on screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hole {
    /// The hole's number in the game's notation.
    pub hole: u32,
    pub seeds: Seeds,
}

/// What a hole holds, sent as the position string writes it: the count
/// (`"4"`) or `"x"` for a closed Bosh hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seeds {
    Count(u32),
    Closed,
}

impl Seeds {
    fn parse(text: &str) -> Option<Seeds> {
        match text {
            "x" => Some(Seeds::Closed),
            n => n.parse().ok().map(Seeds::Count),
        }
    }
}

impl Serialize for Seeds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            // why: a string, as in the position string (and `data-seeds`).
            Seeds::Count(n) => s.collect_str(n),
            Seeds::Closed => s.serialize_str("x"),
        }
    }
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
    /// A hole may be closed (`"x"`) in this game ([`mancala_rules::Layout::closable`]):
    /// the editor says so, without knowing which game that is.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub closable: bool,
}

/// The holes `from` to `to` in that order.
fn run(from: u32, to: u32) -> Box<dyn Iterator<Item = u32>> {
    if from <= to {
        Box::new(from..=to)
    } else {
        Box::new((to..=from).rev())
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
    let mut fields = canonical.split_whitespace();
    // A canonical string always has these fields (game, holes, side, …);
    // a missing one is a plain error, not a panic.
    let mut field = || fields.next().unwrap_or_default();
    let game: GameId = field().parse()?;
    let holes = field();
    let side = field();
    let (stores, round) = (field(), field());
    let seeds = holes
        .split(',')
        .map(|h| {
            Seeds::parse(h).ok_or_else(|| PositionError::new(Field::Holes, format!("hole {h:?}")))
        })
        .collect::<Result<Vec<Seeds>, _>>()?;
    let layout = game.layout();
    let rows = layout
        .rows
        .iter()
        .map(|&(from, to)| {
            run(u32::from(from), u32::from(to))
                .map(|hole| {
                    let seeds = seeds.get(hole as usize - 1).copied().ok_or_else(|| {
                        PositionError::new(Field::Holes, format!("no hole {hole}"))
                    })?;
                    Ok(Hole { hole, seeds })
                })
                .collect()
        })
        .collect::<Result<_, PositionError>>()?;
    let to_move = if side == "N" { "north" } else { "south" };
    let pair = |s: &str| -> Option<[u32; 2]> {
        let (a, b) = s.split_once('/')?;
        Some([a.parse().ok()?, b.parse().ok()?])
    };
    // why by field index: after the side, a game has the pair, the round,
    // both or neither (its layout says which).
    let extra = [stores, round];
    let field_at = |i: Option<usize>| i.and_then(|i| extra.get(i - 3)).copied();
    let stores = field_at(layout.pair_field()).and_then(pair);
    let stores_label = layout.pair;
    let round = field_at(layout.round_field()).and_then(|r| r.parse().ok());
    Ok(BoardView {
        game: game.to_string(),
        position: canonical,
        rows,
        to_move,
        stores,
        stores_label,
        round,
        closable: layout.closable,
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
                seeds: Seeds::Count(1)
            }
        );
        assert_eq!(
            v.rows[1][5],
            Hole {
                hole: 6,
                seeds: Seeds::Count(6)
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
                seeds: Seeds::Closed
            }
        );
        assert_eq!(v.stores, Some([3, 1]));
        assert_eq!(v.round, Some(2));
        // The page gets each hole as the position string writes it.
        let json = serde_json::to_value(&v).expect("serializes");
        assert_eq!(json["rows"][1][4]["seeds"], "x");
        assert_eq!(json["rows"][1][0]["seeds"], "4");
        // The editor learns from the data, not the game id, that `x` is allowed.
        assert_eq!(json["closable"], true);
        let plain = serde_json::to_value(view(&start_position(GameId::Kalah)).unwrap()).unwrap();
        assert!(plain.get("closable").is_none(), "{plain}");
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
