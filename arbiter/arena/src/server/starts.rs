//! The scheduling task's work each time it wakes: the events' games and
//! what [`crate::schedule::decide`] gives for the free slots now, each
//! recorded as started in the database and played in its own task.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Instant;

use tracing::Instrument;

use super::event_games::EventGame;
use super::{lock, Arena, Playing, State, EVENT_GATHER};
use crate::events::{self, EventState};
use crate::pairing::Start;
use crate::schedule::{self, Situation, Underway};
use crate::store::{self, NewGame};

impl Arena {
    /// The bots whose token is not revoked (read each time: a revocation by
    /// the admin command takes effect at the next pairing).
    fn active_bots(&self) -> BTreeSet<String> {
        let r = lock(&self.reader);
        let names = crate::bots::list(&r).map(|bots| {
            bots.into_iter()
                .filter(|b| b.revoked.is_none())
                .map(|b| b.name)
                .collect()
        });
        names.unwrap_or_else(|e| {
            tracing::error!("cannot read the bots: {e}");
            BTreeSet::new()
        })
    }

    /// Starts what the events and the pairing of each pool give for the
    /// free slots now.
    pub(super) fn schedule(self: &Arc<Self>) {
        if self.is_stopping() {
            return;
        }
        let active = self.active_bots();
        let due = if self.opened.elapsed() < EVENT_GATHER {
            Vec::new()
        } else {
            events::in_state(&lock(&self.reader), EventState::Scheduled).unwrap_or_else(|e| {
                tracing::error!("cannot read the events: {e}");
                Vec::new()
            })
        };
        // Events cancelled by the organiser (`arena event cancel`) while playing.
        let playing: Option<BTreeSet<i64>> =
            match events::in_state(&lock(&self.reader), EventState::Playing) {
                Ok(all) => Some(all.into_iter().map(|e| e.id).collect()),
                Err(e) => {
                    tracing::error!("cannot read the events: {e}");
                    None
                }
            };
        let now = Instant::now();
        let mut starts: Vec<(usize, Start, i64, Option<EventGame>)> = Vec::new();
        {
            let mut guard = lock(&self.state);
            // why: borrow the state's fields apart, not through the guard.
            let s = &mut *guard;
            if let Some(playing) = playing {
                s.events.retain(|id, _| {
                    let on = playing.contains(id);
                    if !on {
                        tracing::info!(event = id, "event cancelled: no more of its games");
                    }
                    on
                });
            }
            for event in due {
                self.start_event(s, event, &active);
            }
            self.event_games(s, &active, now, &mut starts);
            // why: an event's players play its games, not the pool's, until it ends.
            let in_events: BTreeSet<String> = s
                .events
                .values()
                .flat_map(|p| p.players.iter().cloned())
                .collect();
            let underway: Vec<Underway<'_>> = s
                .playing
                .values()
                .filter_map(|g| {
                    let began = *s.began.get(&g.id)?;
                    let players = [g.south.as_str(), g.north.as_str()];
                    Some(Underway { players, began })
                })
                .collect();
            let ladders = lock(&self.ladders);
            let situation = Situation {
                pools: &self.config.pools,
                present: &s.present,
                busy: &s.busy,
                active: &active,
                backoff: &s.backoff,
                in_events: &in_events,
                underway: &underway,
                lengths: &s.lengths,
                ladders: &ladders,
                house: &self.config.house,
                house_rate: s.house_games.as_ref(),
                pairing_wait: self.config.pairing_wait,
                room: self.room(s),
                now,
            };
            let decided = schedule::decide(&situation, &mut s.book);
            drop(ladders);
            drop(underway);
            for d in decided {
                if let Some(id) = self.begin(s, d.pool, &d.start, None) {
                    starts.push((d.pool, d.start, id, None));
                }
            }
        }
        for (pool, start, id, event) in starts {
            let arena = Arc::clone(self);
            // why a span: every log event of the game says which game it is.
            let span = tracing::error_span!(
                "game",
                id,
                pool = %self.config.pools[pool].name,
                south = %start.south,
                north = %start.north,
                event = event.as_ref().map(|e| e.event),
            );
            tokio::spawn(async move { arena.play(pool, start, id, event).await }.instrument(span));
        }
    }

    /// Games the server may still start (`--max-games`).
    pub(super) fn room(&self, s: &State) -> usize {
        self.config
            .max_games
            .map_or(usize::MAX, |max| max.saturating_sub(s.started) as usize)
    }

    /// Records a game as started in pool `pool` and counts it in progress;
    /// its id, or `None` when the database refused it.
    pub(super) fn begin(
        &self,
        s: &mut State,
        pool: usize,
        start: &Start,
        event: Option<&EventGame>,
    ) -> Option<i64> {
        let name = &self.config.pools[pool].name;
        let id = store::begin(
            &lock(&self.writer),
            &NewGame {
                pool: name,
                south: &start.south,
                north: &start.north,
                pair: start.pair,
                leg: start.leg,
                event: event.map(|e| (e.event, e.job.index)),
            },
        );
        match id {
            Ok(id) => {
                s.started += 1;
                for bot in [&start.south, &start.north] {
                    *s.busy.entry(bot.clone()).or_default() += 1;
                }
                let now = Instant::now();
                s.began.insert(id, now);
                let house = |p: &str| self.config.house.contains(crate::versions::bot_of(p));
                if event.is_none() && start.leg == 1 && house(&start.south) && house(&start.north) {
                    if let Some(r) = s.house_games.as_mut() {
                        r.started(&start.south, &start.north, now);
                    }
                }
                s.clocks
                    .insert(id, arbiter_core::shutdown::InProgress::now([None, None]));
                s.playing.insert(
                    id,
                    Playing {
                        id,
                        pool: name.clone(),
                        south: start.south.clone(),
                        north: start.north.clone(),
                    },
                );
                Some(id)
            }
            Err(e) => {
                tracing::error!("cannot record a new game: {e}");
                None
            }
        }
    }
}
