//! Extending a finished (or interrupted) tournament with more rounds:
//! `--resume` with a larger `--rounds` than the results log was written with;
//! and recognising logs written under the legacy fingerprint.
//!
//! The schedule is built round by round, and a round's games and openings do
//! not depend on how many rounds follow, so the first R rounds of an
//! (R + k)-round schedule are exactly the R-round schedule, slot for slot.
//! Only the fingerprint ([`crate::event::schedule::Schedule::id`]) and the
//! slot count in the tags differ. [`adopt_fewer_rounds`] recognises games of
//! the same event with fewer rounds and retags them for the longer schedule;
//! the caller replaces the results log with them (so `arbiter merge` and later
//! resumes see one schedule).

use crate::event::schedule::{
    fingerprint, EventSpec, Format, Schedule, SlotKey, TAG_SCHEDULE, TAG_SLOT,
};
use crate::records::log::GameLog;

/// What [`adopt`] recognised the games of the log as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adopted {
    /// The round count the log was written with.
    pub rounds: usize,
    /// Written by an arbiter whose fingerprint was hashed over every job
    /// ([`Schedule::legacy_id`]).
    pub legacy: bool,
}

/// If the games of `games` carry the fingerprint that `spec` has with fewer
/// rounds (or, from an earlier arbiter, the legacy fingerprint of `spec` with
/// as many or fewer rounds), retags them for `schedule` (the schedule of
/// `spec`) and says what they were; otherwise changes nothing and returns
/// `None` (games of another event stay foreign, and are reported as such).
pub fn adopt(games: &mut [GameLog], spec: &EventSpec, schedule: &Schedule) -> Option<Adopted> {
    if spec.format == Format::Knockout {
        // why: its stages depend on the pairs per encounter; no extension.
        return None;
    }
    let per_round = schedule.len() / spec.rounds.max(1);
    let key = games
        .iter()
        .filter_map(SlotKey::of)
        .find(|k| k.schedule != schedule.id)?;
    if per_round == 0 || key.size % per_round != 0 {
        return None;
    }
    let old_rounds = key.size / per_round;
    if old_rounds == 0 || old_rounds > spec.rounds {
        return None;
    }
    let mut old_spec = spec.clone();
    old_spec.rounds = old_rounds;
    let legacy = if old_rounds < spec.rounds && fingerprint(&old_spec) == key.schedule {
        false
    } else if Schedule::legacy_id(&old_spec).as_ref() == Some(&key.schedule) {
        // why only now: the legacy fingerprint walks every job of the old
        // schedule, which is paid once, when such a log is met.
        true
    } else {
        return None;
    };
    let size = schedule.len();
    for g in games.iter_mut() {
        let Some(k) = SlotKey::of(g).filter(|k| k.schedule == key.schedule) else {
            continue;
        };
        // why keep Pair and Seats: the first rounds are the same jobs in the
        // same slots (checked in the tests); a slot outside the old schedule
        // is left foreign.
        if k.index < key.size {
            g.tags.insert(TAG_SCHEDULE.into(), schedule.id.clone());
            g.tags
                .insert(TAG_SLOT.into(), format!("{}/{size}", k.index));
        }
    }
    Some(Adopted {
        rounds: old_rounds,
        legacy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::schedule::Format;
    use crate::testing::rules_log;
    use mancala_rules::GameId;

    fn spec(rounds: usize, event: &str) -> EventSpec {
        let games = vec![GameId::Bohnenspiel, GameId::Bosh];
        EventSpec {
            event: event.into(),
            ..crate::event::schedule::tests::spec(3, Format::RoundRobin, rounds, games)
        }
    }

    fn played(schedule: &Schedule) -> Vec<GameLog> {
        schedule
            .jobs()
            .map(|job| {
                let mut g = rules_log();
                schedule.tag(&mut g, &job);
                g
            })
            .collect()
    }

    #[test]
    fn the_first_rounds_of_a_longer_schedule_are_unchanged() {
        let short = Schedule::build(&spec(2, "e"));
        let long = Schedule::build(&spec(5, "e"));
        assert_ne!(short.id, long.id);
        // (Job has no PartialEq; its Debug text shows every field.)
        let text = |s: &Schedule, n: usize| format!("{:?}", s.jobs().take(n).collect::<Vec<_>>());
        assert_eq!(text(&long, short.len()), text(&short, short.len()));
    }

    #[test]
    fn games_of_fewer_rounds_are_retagged_for_the_longer_schedule() {
        let short = Schedule::build(&spec(2, "e"));
        let long_spec = spec(5, "e");
        let long = Schedule::build(&long_spec);
        let mut games = played(&short);
        assert_eq!(
            adopt(&mut games, &long_spec, &long),
            Some(Adopted {
                rounds: 2,
                legacy: false
            })
        );
        for (g, job) in games.iter().zip(long.jobs()) {
            let k = SlotKey::of(g).unwrap();
            assert_eq!(
                (k.schedule.as_str(), k.index),
                (long.id.as_str(), job.index)
            );
            assert_eq!(k.size, long.len());
        }
        // Already adopted: nothing more to do.
        assert_eq!(adopt(&mut games, &long_spec, &long), None);
    }

    #[test]
    fn logs_of_the_legacy_fingerprint_are_retagged() {
        let short_spec = spec(2, "e");
        let short = Schedule::build(&short_spec);
        let legacy = Schedule::legacy_id(&short_spec).unwrap();
        let old = |s: &Schedule| {
            let mut games = played(s);
            for g in &mut games {
                g.tags.insert(TAG_SCHEDULE.into(), legacy.clone());
            }
            games
        };
        // The same rounds, and more rounds, both take the old games.
        let mut games = old(&short);
        assert_eq!(
            adopt(&mut games, &short_spec, &short),
            Some(Adopted {
                rounds: 2,
                legacy: true
            })
        );
        assert_eq!(games, played(&short));
        let long_spec = spec(5, "e");
        let long = Schedule::build(&long_spec);
        let mut games = old(&short);
        assert_eq!(
            adopt(&mut games, &long_spec, &long),
            Some(Adopted {
                rounds: 2,
                legacy: true
            })
        );
        for (g, job) in games.iter().zip(long.jobs()) {
            assert_eq!(SlotKey::of(g).unwrap().index, job.index);
            assert_eq!(SlotKey::of(g).unwrap().schedule, long.id);
        }
    }

    #[test]
    fn other_events_and_more_rounds_are_not_adopted() {
        let long_spec = spec(5, "e");
        let long = Schedule::build(&long_spec);
        let mut other = played(&Schedule::build(&spec(2, "another")));
        let before = other.clone();
        assert_eq!(adopt(&mut other, &long_spec, &long), None);
        assert_eq!(other, before);
        // Fewer rounds than the log: not an extension.
        let short_spec = spec(2, "e");
        let short = Schedule::build(&short_spec);
        let mut more = played(&long);
        assert_eq!(adopt(&mut more, &short_spec, &short), None);
    }
}
