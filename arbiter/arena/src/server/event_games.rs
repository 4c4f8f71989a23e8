//! The scheduled events being played: a due event started with the bots
//! connected to its pool (or cancelled, saying why), its games started in
//! its schedule's order as their players come free (forfeited by a player
//! away too long), and the event finished when its games are all played.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{lock, Arena, State};
use crate::events::plan::{Open, Plan, PlanError};
use crate::events::{self, Event, EventState};
use crate::pairing::Start;
use arbiter_core::play::runner::Job;

/// An event's game: its event, its slot's job, and what its log is tagged
/// with (the event's name, its schedule).
#[derive(Clone, Debug)]
pub(super) struct EventGame {
    pub(super) event: i64,
    pub(super) job: Job,
    pub(super) name: String,
    pub(super) schedule: Arc<arbiter_core::event::schedule::Schedule>,
}

/// How long an event waits for a player that is not connected before its
/// games are played without it (each lost at the start: a forfeit).
const EVENT_ABSENCE_GRACE: Duration = Duration::from_secs(30);

impl Arena {
    /// Starts a due event with the players connected to its pool now (not
    /// at another event), seeded by their rating; cancels it, saying why,
    /// when it cannot be played.
    pub(super) fn start_event(&self, s: &mut State, event: Event, active: &BTreeSet<String>) {
        let id = event.id;
        let Some(pool) = self.config.pools.iter().find(|p| p.name == event.pool) else {
            let names: Vec<&str> = self.config.pools.iter().map(|p| p.name.as_str()).collect();
            let why = format!(
                "no pool named {:?} on this server (its pools: {})",
                event.pool,
                names.join(", ")
            );
            return self.cancel_event(id, &why);
        };
        // why by bot: one student, one seat (its other version included).
        let in_events: BTreeSet<&str> = s
            .events
            .values()
            .flat_map(|p| p.players.iter().map(|q| crate::versions::bot_of(q)))
            .collect();
        let mut players: Vec<String> = events::one_seat_per_bot(
            s.present
                .iter()
                .filter(|(player, p)| {
                    let bot = crate::versions::bot_of(player);
                    crate::schedule::plays_in(p, pool)
                        && active.contains(bot)
                        && !in_events.contains(bot)
                })
                .map(|(player, _)| player.clone())
                .collect(),
        );
        if players.len() < 2 {
            let why = format!(
                "{} bot(s) connected to pool {} at the start ({}); an event needs two",
                players.len(),
                pool.name,
                if players.is_empty() {
                    "none".to_owned()
                } else {
                    players.join(", ")
                }
            );
            return self.cancel_event(id, &why);
        }
        // Seeds: the rated by rating, best first, then the others by name.
        let ladder = self.ladder(&pool.name);
        let rating = |p: &String| {
            ladder
                .iter()
                .find(|r| &r.name == p)
                .map_or(f64::NEG_INFINITY, |r| r.rating)
        };
        players.sort_by(|a, b| rating(b).total_cmp(&rating(a)).then(a.cmp(b)));
        let (rounds, note) =
            crate::events::plan::rounds_for(event.format, event.rounds, players.len());
        let started = events::start(&lock(&self.writer), id, &players, rounds, note.as_deref());
        let plan = started.map_err(PlanError::from).and_then(|()| {
            let event = Event {
                players: players.clone(),
                played_rounds: Some(rounds),
                state: EventState::Playing,
                ..event
            };
            Plan::of_playing(&lock(&self.reader), &self.config.pools, &event)
        });
        match plan {
            Ok(plan) => {
                tracing::info!(event = id, pool = %pool.name, players = %players.join(", "), "event starts");
                s.events.insert(id, plan);
            }
            Err(e) => tracing::error!(event = id, "event cannot start: {e}"),
        }
    }

    fn cancel_event(&self, id: i64, why: &str) {
        tracing::warn!(event = id, "event cancelled: {why}");
        if let Err(e) = events::cancel(&lock(&self.writer), id, why) {
            tracing::error!(event = id, "cannot cancel the event: {e}");
        }
    }

    /// Starts the events' games whose players are free (in each event's
    /// schedule order), and those of a player away longer than
    /// [`EVENT_ABSENCE_GRACE`] (it loses them at the start); ends the
    /// events whose games are all played.
    pub(super) fn event_games(
        &self,
        s: &mut State,
        active: &BTreeSet<String>,
        now: Instant,
        starts: &mut Vec<(usize, Start, i64, Option<EventGame>)>,
    ) {
        let players: BTreeSet<String> = s
            .events
            .values()
            .flat_map(|p| p.players.iter().cloned())
            .collect();
        s.absent.retain(|p, _| players.contains(p));
        for p in &players {
            if s.present.contains_key(p) && active.contains(crate::versions::bot_of(p)) {
                s.absent.remove(p);
            } else {
                s.absent.entry(p.clone()).or_insert(now);
            }
        }
        // why no pause here: an event's game is played when its turn comes;
        // a bot that keeps crashing loses it.
        let mut free: BTreeMap<String, usize> = players
            .iter()
            .filter_map(|p| {
                let slots = s.present.get(p)?.slots;
                Some((
                    p.clone(),
                    slots.saturating_sub(s.busy.get(p).copied().unwrap_or(0)),
                ))
            })
            .collect();
        let forfeits = |p: &String, absent: &BTreeMap<String, Instant>| {
            absent
                .get(p)
                .is_some_and(|since| now.duration_since(*since) >= EVENT_ABSENCE_GRACE)
        };
        let ids: Vec<i64> = s.events.keys().copied().collect();
        for id in ids {
            let open = match s.events.get(&id).map(Plan::open) {
                Some(Ok(open)) => open,
                Some(Err(e)) => {
                    tracing::error!(event = id, "event stalled: {e}");
                    continue;
                }
                None => continue,
            };
            match open {
                Open::Over(note) => {
                    if s.events.get(&id).is_some_and(Plan::is_playing) {
                        continue;
                    }
                    s.events.remove(&id);
                    tracing::info!(event = id, "event finished");
                    if let Err(e) = events::finish(&lock(&self.writer), id, note.as_deref()) {
                        tracing::error!(event = id, "cannot mark the event finished: {e}");
                    }
                }
                Open::Jobs(jobs) => {
                    for j in jobs {
                        if self.room(s) == 0 {
                            return;
                        }
                        let Some(plan) = s.events.get(&id) else { break };
                        let (south, north) = (
                            plan.players[j.job.south].clone(),
                            plan.players[j.job.north].clone(),
                        );
                        let ready = |p: &String| {
                            free.get(p).is_some_and(|&n| n > 0) || forfeits(p, &s.absent)
                        };
                        if !(ready(&south) && ready(&north)) {
                            continue;
                        }
                        for p in [&south, &north] {
                            if let Some(n) = free.get_mut(p) {
                                *n = n.saturating_sub(1);
                            }
                        }
                        let pool = plan.pool;
                        let start = Start {
                            south,
                            north,
                            pair: j.job.pair as u64,
                            leg: j.leg,
                        };
                        let game = EventGame {
                            event: id,
                            job: j.job,
                            name: plan.name.clone(),
                            schedule: Arc::clone(&plan.schedule),
                        };
                        if let Some(game_id) = self.begin(s, pool, &start, Some(&game)) {
                            if let Some(plan) = s.events.get_mut(&id) {
                                plan.started(game.job.index);
                            }
                            starts.push((pool, start, game_id, Some(game)));
                        }
                    }
                }
            }
        }
    }
}
