//! The game identifiers used in position strings and in the protocol.

use std::fmt;
use std::str::FromStr;

use crate::error::{Field, PositionError};

/// One of the games (and variants) the rules library knows.
/// In JSON it is the id string (`"bohnenspiel-hemprich"`).
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum GameId {
    Bohnenspiel,
    BohnenspielHemprich,
    Bosh,
    Kimasai,
    Kujifunza,
    Kalah,
    #[serde(rename = "kalah-6x6")]
    Kalah6x6,
    Oware,
}

impl GameId {
    pub const ALL: [GameId; 8] = [
        GameId::Bohnenspiel,
        GameId::BohnenspielHemprich,
        GameId::Bosh,
        GameId::Kimasai,
        GameId::Kujifunza,
        GameId::Kalah,
        GameId::Kalah6x6,
        GameId::Oware,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            GameId::Bohnenspiel => "bohnenspiel",
            GameId::BohnenspielHemprich => "bohnenspiel-hemprich",
            GameId::Bosh => "bosh",
            GameId::Kimasai => "kimasai",
            GameId::Kujifunza => "kujifunza",
            GameId::Kalah => "kalah",
            GameId::Kalah6x6 => "kalah-6x6",
            GameId::Oware => "oware",
        }
    }

    /// Which hole numbers of the move notation belong to whom, for people
    /// reading a game record: `South 1-6, North 7-12`.
    pub fn hole_legend(self) -> &'static str {
        match self {
            GameId::Bohnenspiel
            | GameId::BohnenspielHemprich
            | GameId::Kalah
            | GameId::Kalah6x6
            | GameId::Oware => "South 1-6, North 7-12",
            GameId::Bosh => "South 1-5, North 6-10",
            GameId::Kimasai => "South 1-24 (back 1-12, front 13-24), North 25-48",
            GameId::Kujifunza => "South 1-16 (back 1-8, front 9-16), North 17-32",
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameId {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<GameId, PositionError> {
        GameId::ALL
            .into_iter()
            .find(|id| id.as_str() == s)
            .ok_or_else(|| {
                PositionError::new(
                    Field::Game,
                    format!(
                        "unknown game id {s:?} (known: {})",
                        GameId::ALL.map(GameId::as_str).join(", ")
                    ),
                )
            })
    }
}
