//! Board editing on the analysis page: one field of a draft position string
//! changed (a hole, a store or reserve, the side to move, the Bosh round).
//!
//! A draft need not be a valid position while the user edits it: changing
//! one hole of a Bohnenspiel board always breaks the bean total until another
//! hole or a store is changed too. So the answer lays the draft out as it is
//! and says what the rules find wrong with it (their own message); the page
//! analyses only a draft the rules accept. Which field is where in a position
//! string is layout (as in [`crate::board`]), not a rule.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use mancala_rules::{normalize_position, GameId, PositionError};
use serde::{Deserialize, Serialize};

use crate::board::{lay_out, BoardView};

/// Why a draft cannot be edited so: its shape, the target or the value
/// (whether the result is a valid position is the rules' answer,
/// [`Edited::error`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("hole {0:?} is not a hole number")]
    HoleNumber(String),
    #[error("cannot edit {0:?} (hole:N, store:south, store:north, side or round)")]
    Target(String),
    #[error("{what}: {value:?} is not a count (digits only)")]
    NotACount { what: String, value: String },
    #[error("the position is empty")]
    Empty,
    /// The draft's first field names no game.
    #[error(transparent)]
    Game(PositionError),
    #[error("a {game} position has {needed} fields, this one {found}")]
    Fields {
        game: GameId,
        needed: usize,
        found: usize,
    },
    #[error("{game} has no hole {n}")]
    NoHole { game: GameId, n: u32 },
    #[error("{0} has no stores or reserves")]
    NoStores(GameId),
    #[error("stores {0:?}: expected SOUTH/NORTH")]
    Stores(String),
    #[error("side to move {0:?}: S or N")]
    Side(String),
    #[error("{0} has no rounds")]
    NoRounds(GameId),
    /// The edited draft cannot be drawn.
    #[error(transparent)]
    Layout(PositionError),
}

/// What an edit changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A hole, by its number in the game's notation.
    Hole(u32),
    /// A Bohnenspiel store or a Bosh reserve: South's (`0`) or North's (`1`).
    Store(usize),
    SideToMove,
    Round,
}

impl std::str::FromStr for Target {
    type Err = EditError;

    /// `hole:3`, `store:south`, `store:north`, `side`, `round`.
    fn from_str(text: &str) -> Result<Target, EditError> {
        match text.split_once(':') {
            Some(("hole", n)) => n
                .parse()
                .map(Target::Hole)
                .map_err(|_| EditError::HoleNumber(n.to_owned())),
            Some(("store", "south")) => Ok(Target::Store(0)),
            Some(("store", "north")) => Ok(Target::Store(1)),
            None if text == "side" => Ok(Target::SideToMove),
            None if text == "round" => Ok(Target::Round),
            _ => Err(EditError::Target(text.to_owned())),
        }
    }
}

fn count(value: &str, what: &str) -> Result<u32, EditError> {
    value.parse().map_err(|_| EditError::NotACount {
        what: what.to_owned(),
        value: value.to_owned(),
    })
}

/// `draft` with `target` set to `value`; an error names what cannot be
/// edited so (the draft's shape, the target or the value), not whether the
/// result is a valid position: [`edit`] asks the rules that.
pub fn apply(draft: &str, target: Target, value: &str) -> Result<String, EditError> {
    let mut fields: Vec<String> = draft.split_whitespace().map(str::to_owned).collect();
    let game: GameId = fields
        .first()
        .ok_or(EditError::Empty)?
        .parse()
        .map_err(EditError::Game)?;
    let at = game.layout();
    let needed = at.fields();
    if fields.len() != needed {
        return Err(EditError::Fields {
            game,
            needed,
            found: fields.len(),
        });
    }
    let value = value.trim();
    match target {
        Target::Hole(n) => {
            let mut holes: Vec<String> = fields[1].split(',').map(str::to_owned).collect();
            let slot = (n as usize)
                .checked_sub(1)
                .and_then(|i| holes.get_mut(i))
                .ok_or(EditError::NoHole { game, n })?;
            if !(value == "x" && at.closable) {
                count(value, &format!("hole {n}"))?;
            }
            value.clone_into(slot);
            fields[1] = holes.join(",");
        }
        Target::Store(side) => {
            let i = at.pair_field().ok_or(EditError::NoStores(game))?;
            let mut pair: Vec<String> = fields[i].split('/').map(str::to_owned).collect();
            if pair.len() != 2 {
                return Err(EditError::Stores(fields[i].clone()));
            }
            count(value, "store")?;
            pair[side] = value.to_owned();
            fields[i] = pair.join("/");
        }
        Target::SideToMove => {
            if value != "S" && value != "N" {
                return Err(EditError::Side(value.to_owned()));
            }
            fields[at.side_field()] = value.to_owned();
        }
        Target::Round => {
            let i = at.round_field().ok_or(EditError::NoRounds(game))?;
            count(value, "round")?;
            fields[i] = value.to_owned();
        }
    }
    Ok(fields.join(" "))
}

/// The answer to `/api/edit`.
#[derive(Clone, Debug, Serialize)]
pub struct Edited {
    /// The edited draft (canonical when the rules accept it).
    pub draft: String,
    /// The draft laid out as it is.
    pub board: BoardView,
    /// What the rules find wrong with the draft; `None`: a valid position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

pub fn edit(draft: &str, target: Target, value: &str) -> Result<Edited, EditError> {
    let edited = apply(draft, target, value)?;
    match normalize_position(&edited) {
        Ok(canonical) => Ok(Edited {
            board: lay_out(canonical.clone()).map_err(EditError::Layout)?,
            draft: canonical,
            error: None,
        }),
        Err(e) => Ok(Edited {
            board: lay_out(edited.clone()).map_err(EditError::Layout)?,
            draft: edited,
            error: Some(e.to_string()),
        }),
    }
}

#[derive(Deserialize)]
pub struct EditQuery {
    position: String,
    target: String,
    #[serde(default)]
    value: String,
}

/// `GET /api/edit?position=<draft>&target=hole:3&value=7`.
pub async fn handler(Query(q): Query<EditQuery>) -> Response {
    let answer = q
        .target
        .parse()
        .and_then(|target| edit(&q.position, target, &q.value));
    match answer {
        Ok(a) => Json(a).into_response(),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, format!("edit: {e}")).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOHNENSPIEL: &str = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0";

    #[test]
    fn one_hole_changed_is_a_draft_the_rules_refuse_with_their_reason() {
        let a = edit(BOHNENSPIEL, Target::Hole(3), "7").expect("edits");
        assert_eq!(a.draft, "bohnenspiel 6,6,7,6,6,6,6,6,6,6,6,6 S 0/0");
        assert!(
            a.error.as_deref().is_some_and(|e| e.contains("73")),
            "{a:?}"
        );
        // The draft is still drawn, with the new count.
        assert_eq!(a.board.rows[1][2].hole, 3);
        assert_eq!(
            serde_json::to_value(&a.board).expect("json")["rows"][1][2]["seeds"],
            "7"
        );
    }

    #[test]
    fn a_store_balancing_the_total_makes_a_valid_position() {
        let draft = edit(BOHNENSPIEL, Target::Hole(3), "0")
            .expect("edits")
            .draft;
        let a = edit(&draft, Target::Store(1), "6").expect("edits");
        assert_eq!(a.error, None);
        assert_eq!(a.draft, "bohnenspiel 6,6,0,6,6,6,6,6,6,6,6,6 S 0/6");
        assert_eq!(a.board.stores, Some([0, 6]));
    }

    #[test]
    fn side_round_and_closed_holes_of_bosh() {
        let start = "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1";
        let a = edit(start, Target::SideToMove, "N").expect("edits");
        assert_eq!(a.board.to_move, "north");
        let closed = edit(&a.draft, Target::Hole(10), "x").expect("edits").draft;
        let a = edit(&closed, Target::Store(0), "4").expect("edits");
        let a = edit(&a.draft, Target::Round, "2").expect("edits");
        assert_eq!(a.error, None, "{a:?}");
        assert_eq!(a.draft, "bosh 4,4,4,4,4,4,4,4,4,x N 4/0 2");
        // Round 0 is not a round: the rules say so.
        let a = edit(&a.draft, Target::Round, "0").expect("edits");
        assert!(
            a.error.as_deref().is_some_and(|e| e.contains("round")),
            "{a:?}"
        );
    }

    #[test]
    fn what_a_game_does_not_have_cannot_be_edited() {
        let kimasai = mancala_rules::start_position(GameId::Kimasai);
        assert!(apply(&kimasai, Target::Store(0), "1").is_err());
        assert!(apply(&kimasai, Target::Round, "2").is_err());
        assert!(apply(&kimasai, Target::Hole(49), "1").is_err());
        assert!(apply(&kimasai, Target::Hole(0), "1").is_err());
        assert!(
            apply(BOHNENSPIEL, Target::Hole(1), "x").is_err(),
            "closed holes are Bosh only"
        );
        assert!(apply(BOHNENSPIEL, Target::Hole(1), "-1").is_err());
        assert!(apply(BOHNENSPIEL, Target::SideToMove, "W").is_err());
        assert!(apply("bohnenspiel 6,6 S", Target::Hole(1), "1").is_err());
        assert!(apply("", Target::Hole(1), "1").is_err());
        assert!("hole:x".parse::<Target>().is_err());
        assert!("stores".parse::<Target>().is_err());
        assert_eq!("store:north".parse::<Target>(), Ok(Target::Store(1)));
    }
}
