//! KGP's board literal and move numbers, from and to the project's notation.
//!
//! A KGP bot always moves as "south": `<n, my store, your store, my pits 1…n,
//! your pits 1…n>`, each row listed in sowing (counter-clockwise) order from
//! its owner's first pit, and `move k` names the k-th of the mover's pits.
//! The project numbers the holes 1…2n counter-clockwise from South's first
//! hole (South n holes, then North's), stores South's first. So for South
//! to move the literal is the position as it stands; for North it is the
//! same board seen from the other seat: North's row and store first, and
//! `move k` is hole n + k. Opposite pits stay opposite either way (hole h
//! faces hole 2n + 1 − h, KGP's pit k faces the other row's pit n + 1 − k).

use std::fmt;

use mancala_rules::Side;

use crate::remote::kgp::wire::Arg;

/// A position as a KGP bot sees it (always about to move as south).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KgpBoard {
    /// Who is to move in the project's terms.
    pub mover: Side,
    /// Pits a row.
    pub pits: usize,
    /// The literal's numbers: `n, my store, your store, my pits, your pits`.
    values: Vec<u32>,
}

/// A position string the board cannot be drawn from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError(pub String);

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BoardError {}

/// A bot's `move k` that names no pit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {k}: a pit is numbered 1 to {pits}")]
pub struct NoPit {
    pub k: i64,
    pub pits: i64,
}

impl KgpBoard {
    /// The board of a position string of a two-row game with stores
    /// (`kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0`, as the rules library writes it).
    pub fn from_position(position: &str) -> Result<KgpBoard, BoardError> {
        let bad = |what: &str| BoardError(format!("{what} in position {position:?}"));
        let fields: Vec<&str> = position.split_whitespace().collect();
        let [_game, holes, side, stores] = fields.as_slice() else {
            return Err(bad("not four fields (game, holes, side, stores)"));
        };
        let holes: Vec<u32> = holes
            .split(',')
            .map(|h| h.parse().map_err(|_| bad("a hole that is no number")))
            .collect::<Result<_, _>>()?;
        if holes.is_empty() || !holes.len().is_multiple_of(2) {
            return Err(bad("not two rows of holes"));
        }
        let mover = match *side {
            "S" => Side::South,
            "N" => Side::North,
            _ => return Err(bad("no side S or N")),
        };
        let (south_store, north_store) = stores
            .split_once('/')
            .and_then(|(s, n)| Some((s.parse::<u32>().ok()?, n.parse::<u32>().ok()?)))
            .ok_or_else(|| bad("no stores south/north"))?;
        let pits = holes.len() / 2;
        let (south, north) = holes.split_at(pits);
        let (mine, yours, my_store, your_store) = match mover {
            Side::South => (south, north, south_store, north_store),
            Side::North => (north, south, north_store, south_store),
        };
        let mut values = Vec::with_capacity(3 + 2 * pits);
        values.extend([pits as u32, my_store, your_store]);
        values.extend_from_slice(mine);
        values.extend_from_slice(yours);
        Ok(KgpBoard {
            mover,
            pits,
            values,
        })
    }

    /// The board literal as a command argument.
    pub fn arg(&self) -> Arg {
        Arg::Board(self.values.clone())
    }

    /// The project's move for the bot's `move k`, or why `k` names no pit.
    pub fn hole_of(&self, k: i64) -> Result<String, NoPit> {
        let pits = self.pits as i64;
        if !(1..=pits).contains(&k) {
            return Err(NoPit { k, pits });
        }
        let hole = match self.mover {
            Side::South => k,
            Side::North => pits + k,
        };
        Ok(hole.to_string())
    }

    /// The stores: the mover's, then the opponent's.
    pub fn stores(&self) -> (u32, u32) {
        (self.values[1], self.values[2])
    }
}

impl fmt::Display for KgpBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.arg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn south_to_move_is_the_position_as_it_stands() {
        let b = KgpBoard::from_position("kalah 1,2,3,4,5,6,7,0,0,0,0,8 S 10/2").unwrap();
        assert_eq!(b.to_string(), "<6,10,2,1,2,3,4,5,6,7,0,0,0,0,8>");
        assert_eq!(b.hole_of(1).unwrap(), "1");
        assert_eq!(b.hole_of(6).unwrap(), "6");
        assert_eq!(b.stores(), (10, 2));
    }

    #[test]
    fn north_to_move_sees_the_board_from_its_seat() {
        let b = KgpBoard::from_position("kalah 1,2,3,4,5,6,7,0,0,0,0,8 N 10/2").unwrap();
        // North's row 7..12 first, its store first.
        assert_eq!(b.to_string(), "<6,2,10,7,0,0,0,0,8,1,2,3,4,5,6>");
        assert_eq!(b.hole_of(1).unwrap(), "7");
        assert_eq!(b.hole_of(6).unwrap(), "12");
        // Hole 7 (North's first) faces hole 6; KGP's pit 1 faces pit 6.
        assert_eq!(b.stores(), (2, 10));
    }

    #[test]
    fn refuses_what_names_no_pit_or_no_board() {
        let b = KgpBoard::from_position("kalah-6x6 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0").unwrap();
        assert!(b.hole_of(0).unwrap_err().to_string().contains("1 to 6"));
        assert!(b.hole_of(7).unwrap_err().to_string().contains("1 to 6"));
        assert!(b.hole_of(-1).is_err());
        let err = |p: &str| KgpBoard::from_position(p).unwrap_err().to_string();
        assert!(err("kalah 4,4,4 S 0/0").contains("two rows"));
        assert!(err("kalah 4,4 X 0/0").contains("side"));
        assert!(err("kalah 4,4 S 0").contains("stores"));
        assert!(err("kimasai 1,1 S").contains("four fields"));
    }
}
