//! The drain, as the arena takes part in it: no new game once it starts
//! (the games in progress finish), the clocks of the games in progress
//! (its deadline), and the games aborted when that deadline passes.

use super::{lock, Arena, STOPPING};
use crate::store;

impl Arena {
    /// Starts the drain: no new game from now on (the games in progress
    /// finish), and the live page says the server is stopping.
    pub fn stop_pairing(&self) {
        lock(&self.state).stopping = true;
        self.live.publish(arbiter_board::live::LiveMsg::Problems {
            problems: vec![STOPPING.to_owned()],
        });
        self.wake.notify_one();
    }

    /// Whether the server is stopping (no new game).
    pub fn is_stopping(&self) -> bool {
        lock(&self.state).stopping
    }

    /// Each game in progress's remaining clocks as of its last move, and
    /// when that was (the drain's deadline, [`arbiter_core::shutdown::over_by`]).
    pub fn in_progress(&self) -> Vec<arbiter_core::shutdown::InProgress> {
        let s = lock(&self.state);
        s.playing
            .keys()
            .map(|id| {
                s.clocks
                    .get(id)
                    .copied()
                    .unwrap_or_else(|| arbiter_core::shutdown::InProgress::now([None, None]))
            })
            .collect()
    }

    /// Aborts every game still in progress (a drain's deadline passed):
    /// never a result, counted nowhere; a game that ends later is not
    /// recorded. Returns how many.
    pub fn abort_playing(&self) -> usize {
        let ids: Vec<i64> = lock(&self.state).playing.keys().copied().collect();
        let w = lock(&self.writer);
        ids.into_iter()
            .filter(|&id| match store::abort(&w, id) {
                Ok(()) => true,
                Err(e) => {
                    tracing::error!("cannot abort game {id}: {e}");
                    false
                }
            })
            .count()
    }
}
