//! Where a game stands in a merge: the order both `arbiter merge` and the
//! running standings of `serve --watch` keep games in. Its own module so
//! that neither of the two has to reach into the other for it.

use crate::records::log::GameLog;
use crate::records::slot::SlotKey;

/// Where a game was read: the place of its log in the list of logs, and its
/// place among that log's games. The merge keeps, of several copies, the
/// one first in this order, whatever order the copies arrive in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Origin {
    pub file: usize,
    pub index: usize,
}

/// Where a kept game stands in the merged games (sorted by slot, untagged
/// games after, by origin): names and game kinds are listed in this order.
pub type Place = (usize, Origin);

/// The place of a game kept at `origin`.
pub fn place(game: &GameLog, origin: Origin) -> Place {
    match SlotKey::of(game) {
        // why a fixed origin: a slot holds one game, whichever copy it is.
        Some(k) => (k.index, Origin { file: 0, index: 0 }),
        None => (usize::MAX, origin),
    }
}
