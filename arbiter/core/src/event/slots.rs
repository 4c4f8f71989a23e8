//! The slot tags of a results log, checked: what `--resume` and `arbiter
//! verify` demand of the games a tournament wrote (see
//! [`crate::event::schedule::SlotKey`]).
//!
//! - a game with slot tags has readable ones (`Slot` is `index/size`);
//! - the index is within the size, and every game of one schedule agrees on
//!   the size;
//! - no slot holds two finished games (two arbiters on one log, or a forged
//!   line; an interrupted game `*` does not count);
//! - a `Seats` tag names two different engine positions, and a position is
//!   the same engine in every game of a schedule.

use std::collections::BTreeMap;
use std::fmt;

use crate::event::schedule::{SlotKey, TAG_SCHEDULE, TAG_SEATS, TAG_SLOT};
use crate::records::log::GameLog;

/// A slot tag that does not stand up; `game` numbers count from 1 in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotError {
    Unreadable {
        game: usize,
        tag: String,
    },
    OutOfRange {
        game: usize,
        slot: String,
    },
    SizeMismatch {
        game: usize,
        size: usize,
        first: usize,
    },
    Duplicate {
        game: usize,
        first: usize,
        index: usize,
    },
    Seats {
        game: usize,
        detail: String,
    },
}

impl fmt::Display for SlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlotError::Unreadable { game, tag } => write!(
                f,
                "game {game}: unreadable tournament tags ({tag}); expected Schedule and Slot index/size"
            ),
            SlotError::OutOfRange { game, slot } => write!(
                f,
                "game {game}: slot {slot} is outside its schedule (the index must be below the size)"
            ),
            SlotError::SizeMismatch { game, size, first } => write!(
                f,
                "game {game}: its schedule has {first} slots in the games before, not {size}"
            ),
            SlotError::Duplicate { game, first, index } => write!(
                f,
                "game {game}: slot {index} was already played (game {first}); one log written \
                 by two runs, or an edited log"
            ),
            SlotError::Seats { game, detail } => write!(f, "game {game}: {detail}"),
        }
    }
}

impl std::error::Error for SlotError {}

/// Checks the slot tags of `games` (see the module documentation). Games
/// without tournament tags are not looked at.
pub fn check(games: &[GameLog]) -> Result<(), SlotError> {
    // Per schedule: its size (and the game that set it), finished slots, seats.
    let mut sizes: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut finished: BTreeMap<(&str, usize), usize> = BTreeMap::new();
    let mut seats: BTreeMap<(&str, usize), (&str, usize)> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        let game = i + 1;
        let tagged = [TAG_SCHEDULE, TAG_SLOT]
            .iter()
            .any(|t| g.tags.contains_key(*t));
        if !tagged {
            continue;
        }
        let Some(key) = SlotKey::of(g) else {
            let tag = [TAG_SCHEDULE, TAG_SLOT]
                .iter()
                .map(|t| format!("{t} {:?}", g.tags.get(*t).map_or("", String::as_str)))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(SlotError::Unreadable { game, tag });
        };
        let schedule = g.tags[TAG_SCHEDULE].as_str();
        if key.index >= key.size {
            return Err(SlotError::OutOfRange {
                game,
                slot: g.tags[TAG_SLOT].clone(),
            });
        }
        let (first, _) = *sizes.entry(schedule).or_insert((key.size, game));
        if first != key.size {
            return Err(SlotError::SizeMismatch {
                game,
                size: key.size,
                first,
            });
        }
        if g.result.is_some() {
            if let Some(&first) = finished.get(&(schedule, key.index)) {
                return Err(SlotError::Duplicate {
                    game,
                    first,
                    index: key.index,
                });
            }
            finished.insert((schedule, key.index), game);
        }
        if g.tags.contains_key(TAG_SEATS) {
            let Some((south, north)) = key.seats.filter(|(s, n)| s != n) else {
                return Err(SlotError::Seats {
                    game,
                    detail: format!("unreadable Seats tag {:?}", g.tags[TAG_SEATS]),
                });
            };
            for (position, name) in [(south, g.south.as_str()), (north, g.north.as_str())] {
                let (known, at) = *seats.entry((schedule, position)).or_insert((name, game));
                if known != name {
                    return Err(SlotError::Seats {
                        game,
                        detail: format!(
                            "engine #{} is {name:?} here but {known:?} in game {at}",
                            position + 1
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}
