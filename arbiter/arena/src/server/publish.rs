//! What the arena tells the live view: the event it is (its pools and
//! their games) when it opens, and each game as it is recorded.

use super::{lock, Arena};
use crate::store;
use arbiter_core::records::log::GameLog;

impl Arena {
    /// Tells the live view what this arena is: its pools and their games.
    pub(super) fn publish_opened(&self) {
        self.live.publish(arbiter_board::live::LiveMsg::Event(
            arbiter_board::live::hub::EventMeta {
                event: format!(
                    "mancala arena: {}",
                    self.config
                        .pools
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                games: self
                    .config
                    .pools
                    .iter()
                    .map(|p| p.game.to_string())
                    .collect(),
                // why none: the bots come and go; the ladder lists them.
                engines: Vec::new(),
                total: None,
                source: "arena".to_owned(),
            },
        ));
    }

    pub(super) fn publish_finished(&self, pool_index: usize, id: i64, log: &GameLog) {
        let pool = &self.config.pools[pool_index].name;
        let index = store::replay_index(&lock(&self.reader), pool, id);
        let Ok(index) = index else { return };
        self.live
            .publish(arbiter_board::live::LiveMsg::GameFinished(
                arbiter_board::live::hub::GameFinished::new(
                    Some(id as u64),
                    Some(pool_index),
                    index as usize,
                    log,
                ),
            ));
    }
}
